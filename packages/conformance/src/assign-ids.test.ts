import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assignVectorIds } from "./assign-ids.js";
import { checkVectors } from "./check-vectors.js";
import { loadVectors } from "./load-vectors.js";
import { suggestVectorId, VECTOR_ID_PATTERN, vectorIdPrefix } from "./vector-id.js";

const FILE = `[
  {
    "description": "no arguments",
    "rule": "R1",
    "operation": "decode",
    "tests": [
      {
        "description": "null is absent",
        "input": null,
        "expected": {"status": "absent", "arguments": {}}
      },
      {"description": "An empty string (Ünïcode)", "input": "", "expected": {"status": "empty"}},
      {
        "id": "r1-statuses-kept",
        "description": "kept as it is",
        "input": "{}",
        "expected": {"status": "object"}
      }
    ]
  },
  {
    "description": "other null forms",
    "rule": "R1",
    "operation": "decode",
    "tests": [{"description": "null is absent", "input": {"$undefined": true}, "expected": {"status": "absent"}}]
  }
]
`;

describe("vector ids", () => {
  it("start with the file's folder and topic, in kebab-case", () => {
    expect(vectorIdPrefix("r7/gemma-quote-markers.json")).toBe("r7-gemma-quote-markers-");
    expect(
      suggestVectorId({
        file: "r1/statuses.json",
        group: "g",
        description: "the text null",
        taken: new Set(),
      }),
    ).toBe("r1-statuses-text-null");
    const taken = new Set(["r1-statuses-array"]);
    expect(
      suggestVectorId({ file: "r1/statuses.json", group: "native values", description: "an array", taken }),
    ).toBe("r1-statuses-native-values-array");
  });

  it("are given to the tests without one, in the file's own layout, and nothing else changes", () => {
    const root = mkdtempSync(join(tmpdir(), "vector-ids-"));
    mkdirSync(join(root, "r1"));
    writeFileSync(join(root, "r1", "statuses.json"), FILE);
    expect(assignVectorIds({ root }).map((a) => a.id)).toEqual([
      "r1-statuses-null-is-absent",
      "r1-statuses-empty-string-unicode",
      "r1-statuses-other-null-forms-null-is-absent",
    ]);
    expect(readFileSync(join(root, "r1", "statuses.json"), "utf8")).toBe(FILE);
    assignVectorIds({ root, write: true });
    const written = readFileSync(join(root, "r1", "statuses.json"), "utf8");
    expect(written).toContain(
      '      {\n        "id": "r1-statuses-null-is-absent",\n        "description": "null is absent",',
    );
    expect(written).toContain(
      '{"id": "r1-statuses-empty-string-unicode", "description": "An empty string (Ünïcode)"',
    );
    expect(JSON.parse(written.replace(/"id": "[^"]*",\s*/g, ""))).toEqual(
      JSON.parse(FILE.replace(/"id": "[^"]*",\s*/g, "")),
    );
    expect(checkVectors(root)).toEqual([]);
    expect(assignVectorIds({ root })).toEqual([]);
  });

  it("are required, unique across the suite and prefixed by their file", () => {
    const root = mkdtempSync(join(tmpdir(), "vector-ids-"));
    mkdirSync(join(root, "r1"));
    mkdirSync(join(root, "r2"));
    const group = (rule: string, id: string | undefined) => [
      {
        description: "g",
        rule,
        operation: "decode",
        tests: [{ ...(id ? { id } : {}), description: "t", input: "", expected: { status: "empty" } }],
      },
    ];
    writeFileSync(join(root, "r1", "a.json"), JSON.stringify(group("R1", "r1-a-t")));
    writeFileSync(join(root, "r2", "b.json"), JSON.stringify(group("R2", "r1-a-t")));
    writeFileSync(join(root, "r2", "c.json"), JSON.stringify(group("R2", undefined)));
    writeFileSync(join(root, "r2", "d.json"), JSON.stringify(group("R2", "r2-d-Upper")));
    expect(checkVectors(root).map((p) => `${p.file}: ${p.message}`)).toEqual([
      "r2/b.json: id r1-a-t does not start with r2-b-",
      "r2/b.json: id r1-a-t is used twice (also in r1/a.json)",
      "r2/c.json: /0/tests/0 must have required property 'id'",
      'r2/d.json: /0/tests/0/id must match pattern "^[a-z0-9]+(-[a-z0-9]+)*$"',
    ]);
    expect(() => loadVectors({ root })).toThrow(/r2\/c.json: a test has no id .*ids --write/);
  });

  it("of the shipped suite are kebab-case, prefixed and unique", () => {
    const ids = loadVectors().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const testCase of loadVectors()) {
      expect(testCase.id).toMatch(VECTOR_ID_PATTERN);
      expect(testCase.id.startsWith(vectorIdPrefix(testCase.file))).toBe(true);
    }
  });
});
