import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fixtures, root, run, tempDir } from "./helpers.js";

// Every format, repaired by the record engine and undone from the journal: the input comes back byte for byte, and
// what was written holds what the report says (a second repair changes nothing).
const repo = join(root, "..", "..");
let dir: string;
beforeAll(async () => {
  dir = await tempDir();
});

/** A record of each format that a rule changes, as the files hold them. */
const broken: Array<[string, string]> = [
  ["repros.jsonl", readFileSync(join(fixtures, "doors/repros.jsonl"), "utf8")],
  [
    "ollama.json",
    readFileSync(
      join(repo, "packages/openai/test/formats/__fixtures__/ollama-chat-tools.json"),
      "utf8",
    ).replace(
      '"arguments": { "format": "celsius", "location": "Toronto, CA" }',
      "\"arguments\": \"{'format': 'celsius', 'location': 'Toronto, CA'}\"",
    ),
  ],
  [
    "gemini.jsonl",
    readFileSync(join(repo, "packages/gemini/test/__fixtures__/google-requests.jsonl"), "utf8").replace(
      '"args":{}',
      '"args":"```json\\n{}\\n```"',
    ),
  ],
  [
    "bedrock.jsonl",
    readFileSync(join(repo, "packages/bedrock/test/__fixtures__/converse-requests.jsonl"), "utf8").replace(
      '"input": {"city": "London"}',
      "\"input\": \"{'city': 'London'}\"",
    ),
  ],
  [
    "cohere.jsonl",
    readFileSync(join(repo, "packages/cohere/test/__fixtures__/cohere-requests.jsonl"), "utf8").replace(
      '"arguments": "{\\"input\\": 3}"',
      '"arguments": "{\'input\': 3}"',
    ),
  ],
];

describe("repair then undo, in each format", () => {
  it.each(broken)("%s", async (name, text) => {
    const input = join(dir, name);
    writeFileSync(input, text);
    const out = join(dir, `fixed-${name}`);
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
      "--quiet",
    ]);
    expect(repaired.code, repaired.err).toBeLessThan(2);
    expect(readFileSync(out).equals(readFileSync(input))).toBe(false);
    const again = JSON.parse(
      (await run(["repair", out, "-o", join(dir, `twice-${name}`), "--repair", "core", "--json"])).out,
    );
    expect(again.summary.changes).toBe(0);
    const restored = join(dir, `back-${name}`);
    expect((await run(["undo", out, "--journal", journal, "-o", restored])).code).toBe(0);
    expect(readFileSync(restored).equals(readFileSync(input))).toBe(true);
  });
});
