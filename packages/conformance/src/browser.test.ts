import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as browser from "./browser.js";
import * as index from "./index.js";
import { defaultVectorsRoot, listVectorFiles, loadVectors } from "./load-vectors.js";

// What only Node can do: read and write the vector files.
const FILE_SYSTEM = [
  "assignVectorIds",
  "checkVectors",
  "defaultVectorsRoot",
  "listVectorFiles",
  "loadVectors",
  "vectorsSchema",
];

describe("the browser entry", () => {
  it("exports everything the Node entry does but what reads or writes files", () => {
    const expected = Object.keys(index)
      .filter((name) => !FILE_SYSTEM.includes(name))
      .sort();
    expect(Object.keys(browser).sort()).toEqual(expected);
    // The runner of the Node entry reads render vectors' template files from disk; the browser one cannot.
    for (const name of expected.filter(
      (name) => !["runTest", "runConformance", "resolveRenderInput"].includes(name),
    ))
      expect((browser as Record<string, unknown>)[name], name).toBe((index as Record<string, unknown>)[name]);
  });

  it("casesFromVectors reads the parsed files into the same cases loadVectors reads from disk", () => {
    const root = defaultVectorsRoot();
    const files = listVectorFiles(root).map((file) => ({
      file,
      groups: JSON.parse(readFileSync(join(root, file), "utf8")) as unknown,
    }));
    expect(browser.casesFromVectors({ files })).toEqual(loadVectors());
    expect(browser.casesFromVectors({ files, rules: ["R1"] })).toEqual(loadVectors({ rules: ["R1"] }));
  });

  it("casesFromVectors refuses a test without an id", () => {
    const groups = [
      { description: "g", rule: "R1", operation: "decode", tests: [{ description: "t", expected: {} }] },
    ];
    expect(() => browser.casesFromVectors({ files: [{ file: "r1/x.json", groups }] })).toThrow(/has no id/);
  });
});
