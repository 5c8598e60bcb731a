import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { coreRepairs } from "@toolcall/core";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { runRepair } from "../src/commands/repair.js";
import { runUndo } from "../src/commands/undo.js";

// Repair then undo is the identity: on every real file of the corpus, and on generated sessions, whatever the flags.
// In-process (the commands are functions), so hundreds of cases run in seconds; the e2e tests run the built binary.

const root = fileURLToPath(new URL("../../../", import.meta.url));
const corpus = [
  "apps/cli/test/__fixtures__",
  "apps/cli/examples",
  "packages/openai/test/formats/__fixtures__",
  "packages/anthropic/test/__fixtures__",
  "packages/datasets/test/__fixtures__",
  "packages/bedrock/test/__fixtures__",
  "packages/cohere/test/__fixtures__",
].flatMap((dir) =>
  readdirSync(join(root, dir))
    .filter((name) => /\.(jsonl?|sse)$/.test(name) && !name.endsWith(".check.json"))
    .map((name) => join(root, dir, name)),
);

let dir: string;
let count = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolcall-undo-"));
});

const sink = () => new PassThrough().resume();

/** Repairs `input` with a journal, undoes it, and returns what undo wrote and how many records changed. */
async function repairAndUndo(input: string, flags: Partial<Parameters<typeof runRepair>[0]> = {}) {
  const n = count++;
  const output = join(dir, `out-${n}`);
  const journal = join(dir, `journal-${n}.jsonl`);
  const restored = join(dir, `restored-${n}`);
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
    ...flags,
  });
  if (repaired.exitCode === 2) return { repaired, restored: undefined };
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
  return { repaired, restored: await readFile(restored), output: await readFile(output) };
}

describe("repair, then undo, gives the input byte for byte", () => {
  it.each(corpus.map((path) => [path.slice(root.length), path]))("%s", async (_, path) => {
    for (const flags of [
      {},
      { policy: "drop" as const, missingResult: "drop-call" as const, pending: "drop-call" as const },
      { policy: "empty" as const },
    ]) {
      const { repaired, restored } = await repairAndUndo(path, flags);
      expect(repaired.exitCode).not.toBe(2);
      expect(restored?.equals(readFileSync(path))).toBe(true);
    }
  });

  it("the corpus does exercise the journal: most of its files change under repair", async () => {
    let changed = 0;
    for (const path of corpus) {
      const { repaired } = await repairAndUndo(path);
      if (repaired.summary.changed > 0) changed++;
    }
    expect(changed).toBeGreaterThanOrEqual(8);
  });

  it("generated sessions in every framing, whatever the flags", async () => {
    const args = fc.constantFrom(
      '{"city": "Paris"}',
      "",
      "null",
      "```json\n{}\n```",
      "{'a': 1}",
      "{oops",
      "[1]",
    );
    const message = fc.oneof(
      fc.constant({ role: "user", content: "go" }),
      fc.record({
        role: fc.constant("assistant"),
        content: fc.constant(null),
        tool_calls: fc.array(
          fc.record({
            id: fc.constantFrom("a", "b", ""),
            type: fc.constant("function"),
            function: fc.record({ name: fc.constantFrom("f", ""), arguments: args }),
          }),
          { minLength: 1, maxLength: 2 },
        ),
      }),
      fc.record({
        role: fc.constant("tool"),
        tool_call_id: fc.constantFrom("a", "b", "z"),
        content: fc.constant("ok"),
      }),
    );
    const conversation = fc.array(message, { minLength: 1, maxLength: 5 });
    const layout = fc.constantFrom("jsonl", "crlf", "pretty", "array", "bom");
    await fc.assert(
      fc.asyncProperty(
        fc.array(conversation, { minLength: 1, maxLength: 4 }),
        layout,
        fc.constantFrom("preserve", "drop", "empty"),
        fc.constantFrom("synthesize", "drop-call", "keep"),
        async (conversations, shape, policy, pending) => {
          let text: string;
          if (shape === "jsonl")
            text = conversations.map((c) => `${JSON.stringify({ messages: c })}\n`).join("");
          else if (shape === "crlf") text = conversations.map((c) => `${JSON.stringify(c)}\r\n`).join("");
          else if (shape === "pretty")
            text = `${JSON.stringify({ id: 1, messages: conversations[0] }, null, "\t")}`;
          else if (shape === "array")
            text = `${JSON.stringify(
              conversations.map((c) => ({ messages: c })),
              null,
              2,
            )}\n`;
          else text = `\uFEFF${conversations.map((c) => JSON.stringify(c)).join("\n")}`;
          const input = join(dir, `generated-${count}.json`);
          await writeFile(input, text);
          const { repaired, restored } = await repairAndUndo(input, {
            policy: policy as "preserve",
            pending: pending as "keep",
          });
          expect(repaired.exitCode).not.toBe(2);
          expect(restored?.toString("utf8")).toBe(text);
        },
      ),
      { numRuns: 150 },
    );
  });
});
