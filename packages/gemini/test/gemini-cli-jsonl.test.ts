import { readFileSync } from "node:fs";
import { WILD_ARGUMENTS } from "@toolcall/conformance";
import { expectConversationFormat, expectFormatLossless } from "@toolcall/conformance/vitest";
import { createRecordEngine, sanitizeHistory } from "@toolcall/core";
import { createFormatRegistry } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { geminiCliJsonlFormat, geminiCliSessionFormat, geminiFormats } from "../src/index.js";

// A look-alike of a Gemini CLI JSONL session (__fixtures__/README.md): the records of the JSON look-alike as the
// chat recording appends them, each gemini record written twice (calls running, then with results), `$set` lines,
// a turn cut back by `$rewindTo`.
type Line = Record<string, unknown> & { toolCalls?: Array<Record<string, unknown>> };
const lines = () =>
  readFileSync(new URL("./__fixtures__/gemini-cli-session.lookalike.jsonl", import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Line);
const document = () =>
  JSON.parse(
    readFileSync(new URL("./__fixtures__/gemini-cli-session.lookalike.json", import.meta.url), "utf8"),
  );
const engine = createRecordEngine();
const registry = createFormatRegistry(geminiFormats);

describe("Gemini CLI JSONL sessions", () => {
  it("are detected and read as the CLI resumes them: the last version of each record, rewound turns left out", () => {
    const value = lines();
    expect(registry.detect(value, "session")).toMatchObject({ format: { id: "gemini-cli-jsonl" } });
    const messages = geminiCliJsonlFormat.read(value).conversations[0]?.messages ?? [];
    // The same conversation as the one-document session it was appended from.
    const whole = geminiCliSessionFormat.read(document()).conversations[0]?.messages ?? [];
    expect(JSON.parse(JSON.stringify(messages))).toEqual(JSON.parse(JSON.stringify(whole)));
    expect(engine.check(geminiCliJsonlFormat, value).issues).toEqual([]);
    expectFormatLossless(geminiCliJsonlFormat, value, { repair: engine.repair });
  });

  it("a repair rewrites the line that counts; earlier versions and every other line stay the same objects", () => {
    const value = lines();
    const last = value.reduce(
      (found, line, index) => (line.id === "e2d5f1a0-7b3c-4e9d-8f21-5c6a0b9d3e47" ? index : found),
      -1,
    );
    const calls = value[last]?.toolCalls as Array<Record<string, unknown>>;
    (calls[0] as Record<string, unknown>).args = '```json\n{"file_path": "/home/dev/parser/parser.py"}\n```';
    const repaired = expectFormatLossless(geminiCliJsonlFormat, value, { repair: engine.repair });
    expect(repaired.changes.map((change) => [change.rule, change.place])).toEqual([
      ["arguments_canonicalized", `record ${last + 1}`],
    ]);
    const written = repaired.value as Line[];
    expect(written[last]?.toolCalls?.[0]?.args).toEqual({ file_path: "/home/dev/parser/parser.py" });
    written.forEach((line, index) => {
      if (index !== last) expect(line).toBe(value[index]);
    });
    expect(repaired).toMatchObject({ remaining: [] });
  });

  it("a record in a checkpoint (`$set.messages`) is repaired in its place in the checkpoint", () => {
    const [metadata, ...rest] = lines();
    const records = rest.filter((line) => typeof line.id === "string");
    const latest = [...new Map(records.map((record) => [record.id, record])).values()].slice(0, 3);
    const broken = structuredClone(latest);
    ((broken[1]?.toolCalls ?? [])[0] as Record<string, unknown>).args = '{"absolute_path": "/x",}';
    const value = [metadata, { $set: { messages: broken } }];
    const repaired = engine.repair(geminiCliJsonlFormat, value);
    expect(repaired.changes.map((change) => change.place)).toEqual(["record 2 $set.messages[1]"]);
    const written = repaired.value as Array<{ $set?: { messages: Line[] } }>;
    expect(written[0]).toBe(metadata);
    expect(written[1]?.$set?.messages[1]?.toolCalls?.[0]?.args).toEqual({ absolute_path: "/x" });
    expect(written[1]?.$set?.messages[0]).toBe(broken[0]);
  });

  it("keeps its promises as a conversation format (the conformance suite's round trip, sanitized)", () => {
    expectConversationFormat(geminiCliJsonlFormat, lines(), { sanitize: sanitizeHistory });
  });
});

describe("generated Gemini CLI JSONL sessions", () => {
  it("read then write is the session itself; repair loses nothing without naming it", () => {
    const step = fc.record({
      args: fc.oneof(fc.constantFrom(...WILD_ARGUMENTS), fc.constant({ a: 1 })),
      answered: fc.boolean(),
      rewrite: fc.boolean(),
      rewind: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 5 }), (steps) => {
        const value: unknown[] = [{ sessionId: "s", projectHash: "h", startTime: "t", kind: "main" }];
        steps.forEach((s, k) => {
          value.push({ id: `u${k}`, timestamp: "t", type: "user", content: [{ text: "go" }] });
          const call = { id: `c${k}`, name: "f", args: s.args, status: "executing", timestamp: "t" };
          value.push({ id: `g${k}`, timestamp: "t", type: "gemini", content: "", toolCalls: [call] });
          if (s.answered) {
            const result = [{ functionResponse: { id: `c${k}`, name: "f", response: { output: "ok" } } }];
            const done = { ...call, status: "success", result };
            value.push({ id: `g${k}`, timestamp: "t", type: "gemini", content: "", toolCalls: [done] });
          }
          if (s.rewrite) value.push({ $set: { lastUpdated: "t" } });
          if (s.rewind) value.push({ $rewindTo: `u${k}` });
        });
        expectFormatLossless(geminiCliJsonlFormat, value, { repair: engine.repair });
      }),
      { numRuns: 200 },
    );
  });
});
