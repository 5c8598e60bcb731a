import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkVectors } from "./check-vectors.js";

describe("checkVectors", () => {
  it("reports what the schema and the suite's own rules forbid", async () => {
    const root = mkdtempSync(join(tmpdir(), "vectors-"));
    mkdirSync(join(root, "r1"));
    let n = 0;
    const group = (description: string, rule: string, testDescription: string) => ({
      description,
      rule,
      operation: "decode",
      tests: [
        {
          id: `r1-${description.split(" ")[0]}-${++n}`,
          description: testDescription,
          input: "",
          expected: { status: "empty" },
        },
        {
          id: `r1-${description.split(" ")[0]}-${++n}`,
          description: testDescription,
          input: "",
          expected: { status: "empty" },
        },
      ],
    });
    writeFileSync(join(root, "r1", "should.json"), JSON.stringify([group("it should decode", "R1", "once")]));
    writeFileSync(join(root, "r1", "misplaced.json"), JSON.stringify([group("empty text", "R2", "twice")]));
    writeFileSync(join(root, "r1", "broken.json"), "[{");
    const problems = checkVectors(root);
    const about = (file: string) => problems.filter((p) => p.file === join("r1", file)).map((p) => p.message);
    expect(about("should.json")).toEqual([expect.stringMatching(/description must match pattern/)]);
    expect(about("misplaced.json")).toEqual([
      expect.stringMatching(/is R2 in directory r1/),
      expect.stringMatching(/id r1-empty-3 does not start with r1-misplaced-/),
      expect.stringMatching(/test description repeated .*: twice/),
      expect.stringMatching(/id r1-empty-4 does not start with r1-misplaced-/),
    ]);
    expect(about("broken.json")).toEqual([expect.stringMatching(/not JSON/)]);
  });
});
