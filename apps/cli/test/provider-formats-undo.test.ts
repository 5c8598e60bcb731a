import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { coreRepairs } from "@toolcall/core";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { runRepair } from "../src/commands/repair.js";
import { runUndo } from "../src/commands/undo.js";

// Bedrock Converse and Cohere v2 files, generated with broken arguments, missing results, blank text and ids
// Bedrock refuses: repair (for no provider, or for the provider the file is for), then undo, gives the input byte for
// byte, and the repaired file is read as the same format. In-process, as undo.test.ts runs the commands.

let dir: string;
let count = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolcall-provider-undo-"));
});
const sink = () => new PassThrough().resume();

async function repairAndUndo(text: string, provider: string | undefined) {
  const n = count++;
  const input = join(dir, `in-${n}.jsonl`);
  const output = join(dir, `out-${n}.jsonl`);
  const journal = join(dir, `journal-${n}.jsonl`);
  const restored = join(dir, `restored-${n}.jsonl`);
  await writeFile(input, text);
  const repaired = await runRepair({
    files: [input],
    output,
    inPlace: false,
    backupSuffix: ".bak",
    policy: "preserve",
    missingResult: "synthesize",
    pending: "synthesize",
    repairs: coreRepairs,
    journal,
    json: false,
    quiet: true,
    maxLineBytes: 1 << 28,
    stdout: sink(),
    stderr: sink(),
    ...(provider === undefined ? {} : { provider }),
  });
  expect(repaired.exitCode).not.toBe(2);
  const code = await runUndo({
    file: output,
    journal,
    output: restored,
    inPlace: false,
    quiet: true,
    stdout: sink(),
    stderr: sink(),
  });
  expect(code).toBe(0);
  return { changed: repaired.summary.changed, restored: await readFile(restored, "utf8") };
}

const input = fc.oneof(
  fc.constant({ city: "Paris" }),
  fc.constantFrom("", "{'city': 'Paris'}", "[1]", '```json\n{"a":1}\n```', "{oops"),
);
const bedrockTurn = fc
  .tuple(
    fc.constantFrom("tooluse_1", "functions.f:0", "call/1"),
    input,
    fc.boolean(),
    fc.constantFrom("", " ", "ok"),
  )
  .map(([id, value, answered, said]) => [
    { role: "assistant", content: [{ text: said }, { toolUse: { toolUseId: id, name: "f", input: value } }] },
    {
      role: "user",
      content: answered
        ? [{ toolResult: { toolUseId: id, content: [{ text: "22" }], status: "success" } }]
        : [{ text: "go on" }],
    },
  ]);
const bedrock = fc.array(bedrockTurn, { minLength: 1, maxLength: 3 }).map((turns) =>
  JSON.stringify({
    messages: [{ role: "user", content: [{ text: "go" }] }, ...turns.flat()],
    inferenceConfig: {},
    toolConfig: { tools: [{ toolSpec: { name: "f", inputSchema: { json: { type: "object" } } } }] },
  }),
);
const args = fc.constantFrom('{"q": "a"}', "", "{'q': 'a'}", "[1]", "{oops", "null");
const cohereTurn = fc
  .tuple(fc.constantFrom("web_search_1", "f_2"), args, fc.boolean())
  .map(([id, text, answered]) => [
    {
      role: "assistant",
      tool_calls: [{ id, type: "function", function: { name: "web_search", arguments: text } }],
      tool_plan: "I will search.",
    },
    answered
      ? {
          role: "tool",
          tool_call_id: id,
          content: [{ type: "document", document: { data: { output: "5" } } }],
        }
      : { role: "user", content: "go on" },
  ]);
const cohere = fc.array(cohereTurn, { minLength: 1, maxLength: 3 }).map((turns) =>
  JSON.stringify({
    model: "command-a-03-2025",
    messages: [{ role: "user", content: "go" }, ...turns.flat()],
  }),
);

describe("repair, then undo, on Bedrock Converse and Cohere v2 files", () => {
  it.each([
    ["bedrock-converse", bedrock],
    ["cohere", cohere],
  ] as const)(
    "%s: gives the input byte for byte, for no provider and for that provider",
    async (provider, record) => {
      let changed = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(record, { minLength: 1, maxLength: 3 }),
          fc.boolean(),
          async (lines, named) => {
            const text = `${lines.join("\n")}\n`;
            const result = await repairAndUndo(text, named ? provider : undefined);
            changed += result.changed;
            expect(result.restored).toBe(text);
          },
        ),
        { numRuns: 60 },
      );
      expect(changed).toBeGreaterThan(30);
    },
  );
});
