import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, tempDir } from "./helpers.js";

// Small things a first user meets: an empty data set, a file that is not JSON, a missing file, a mistyped flag.

let dir: string;
beforeAll(async () => {
  dir = await tempDir("toolcall-cli-edges-");
  await writeFile(join(dir, "empty.jsonl"), "");
  await writeFile(join(dir, "empty-array.json"), "[]\n");
  await writeFile(join(dir, "empty-array-pretty.json"), "[\n]\n");
  await writeFile(join(dir, "table.csv"), "name,city,temperature\nAda,London,12\nLin,Osaka,21\n");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("rough edges of the command line", () => {
  it("an empty file and an empty array are both an empty data set: exit 0, 0 conversations", async () => {
    for (const name of ["empty.jsonl", "empty-array.json", "empty-array-pretty.json"]) {
      const result = await run(["check", name], { cwd: dir });
      expect(result.code, name).toBe(0);
      expect(result.out, name).toContain(`${name}: 0 conversations`);
      const repaired = await run(["repair", name, "-o", "-", "--quiet"], { cwd: dir });
      expect(repaired.code, name).toBe(0);
    }
  });

  it("a CSV file is reported without its text repeated in the message", async () => {
    const result = await run(["check", "table.csv"], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.out).toContain("input_not_json");
    expect(result.out).not.toContain("Ada,London");
    expect(result.out).not.toContain("is not valid JSON");
  });

  it("a missing file is reported in two lines: the file and the totals", async () => {
    const result = await run(["check", "missing.jsonl"], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.out.trimEnd().split("\n")).toEqual([
      "missing.jsonl: unreadable (input_unreadable): no such file or directory",
      "1 error, 0 warnings, 0 info",
    ]);
    const json = await run(["check", "missing.jsonl", "--json"], { cwd: dir });
    expect(JSON.parse(json.out).findings).toHaveLength(1);
  });

  it("counts of one are singular: toolcall FILE says 1 warning, not 1 warnings", async () => {
    // A history that ends while its one call's tool runs: one warning (tool_result_pending), no error.
    const pending = {
      messages: [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: "{}" } }],
        },
      ],
    };
    await writeFile(join(dir, "pending.jsonl"), `${JSON.stringify(pending)}\n`);
    const result = await run(["pending.jsonl"], { cwd: dir, env: { TMPDIR: dir } });
    expect(result.out).toContain("0 errors, 1 warning: no rule of core's is broken");
    expect(result.out).not.toMatch(/\b1 (error|warning)s\b/);
  });

  it("an unknown flag is named plainly, quotes balanced, with the -- way for a file named like a flag", async () => {
    const result = await run(["check", "--bogus", "x.jsonl"], { cwd: dir });
    expect(result.code).toBe(2);
    const first = result.err.split("\n")[0] as string;
    expect(first).toBe(
      "toolcall check: unknown option --bogus (a FILE whose name starts with - goes after --, as in: -- --bogus)",
    );
    expect((first.match(/'/g) ?? []).length % 2).toBe(0);
    expect((first.match(/"/g) ?? []).length % 2).toBe(0);
  });
});
