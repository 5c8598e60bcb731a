import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { root, run, tempDir } from "./helpers.js";

// Every real file the formats' packages test with, through the command line: repaired with every core repair and
// undone from the journal, it comes back byte for byte; a file no rule changes is written as its bytes were.
const repo = join(root, "..", "..");
const FOLDERS = [
  "packages/openai/test/formats/__fixtures__",
  "packages/anthropic/test/__fixtures__",
  "packages/datasets/test/__fixtures__",
  "packages/gemini/test/__fixtures__",
  "packages/langchain/test/__fixtures__",
  "packages/ai-sdk/test/__fixtures__/saved",
  "packages/langchain/test/__fixtures__/saved",
];
const FILES = FOLDERS.flatMap((folder) =>
  readdirSync(join(repo, folder))
    .filter((name) => /\.(json|jsonl|sse|traj)$/.test(name))
    .map((name) => join(folder, name)),
);
let dir: string;
beforeAll(async () => {
  dir = await tempDir();
});

/** The file with its first string-valued `arguments` emptied (`""`, as servers send it), so a rule changes it. */
const emptied = (text: string) => text.replace(/"arguments": ?"(?:[^"\\]|\\.)+"/, '"arguments": ""');

describe("repair then undo, every real file of every format", () => {
  const cases = FILES.flatMap((file) => {
    const text = readFileSync(join(repo, file), "utf8");
    return emptied(text) === text
      ? [[file, false]]
      : [
          [file, false],
          [file, true],
        ];
  }) as Array<[string, boolean]>;
  it.each(cases)("%s (first arguments emptied: %s)", async (file, empty) => {
    const name = `${empty ? "emptied-" : ""}${file.replaceAll("/", "_")}`;
    const input = join(dir, `in-${name}`);
    const text = readFileSync(join(repo, file), "utf8");
    writeFileSync(input, empty ? emptied(text) : text);
    const out = join(dir, name);
    const journal = join(dir, `${name}.journal`);
    const repaired = await run([
      "repair",
      input,
      "-o",
      out,
      "--journal",
      journal,
      "--repair",
      "core",
      "--json",
    ]);
    expect(repaired.code, repaired.err).toBeLessThan(2);
    const report = JSON.parse(repaired.out);
    if (report.summary.changes === 0) {
      expect(readFileSync(out).equals(readFileSync(input))).toBe(true);
      return;
    }
    const restored = join(dir, `back-${name}`);
    const undone = await run(["undo", out, "--journal", journal, "-o", restored]);
    expect(undone.code, undone.err).toBe(0);
    expect(readFileSync(restored).equals(readFileSync(input))).toBe(true);
  });
});
