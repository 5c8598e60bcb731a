import { readFileSync } from "node:fs";
import { WILD_ARGUMENTS } from "@toolcall/conformance";
import { expectFormatLossless } from "@toolcall/conformance/vitest";
import { createRecordEngine } from "@toolcall/core";
import { createFormatRegistry } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { geminiCliSessionFormat, geminiFormats } from "../src/index.js";

// A look-alike of a Gemini CLI chat session (__fixtures__/README.md: no public session file carries a licence).
type Session = { messages: Array<Record<string, unknown> & { toolCalls?: Array<Record<string, unknown>> }> };
const session = () =>
  JSON.parse(
    readFileSync(new URL("./__fixtures__/gemini-cli-session.lookalike.json", import.meta.url), "utf8"),
  ) as Session;
const engine = createRecordEngine();

describe("Gemini CLI chat sessions", () => {
  it("are detected and read: each call with its args, each recorded result paired; info notes left out", () => {
    const value = session();
    expect(createFormatRegistry(geminiFormats).detect(value, "record")).toMatchObject({
      certainty: "certain",
      format: { id: "gemini-cli-session" },
    });
    const messages = geminiCliSessionFormat.read(value).conversations[0]?.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);
    const call = (messages[1]?.tool_calls as Array<{ function: unknown }> | undefined)?.[0];
    expect(call?.function).toEqual({
      name: "read_file",
      arguments: '{"absolute_path":"/home/dev/parser/tests/test_parser.py"}',
    });
    expect(engine.check(geminiCliSessionFormat, value).issues).toEqual([]);
    expectFormatLossless(geminiCliSessionFormat, value, { repair: engine.repair });
  });

  it("repaired args are written as an object in their call; every other record is the same object", () => {
    const value = session();
    const calls = value.messages[2]?.toolCalls as Array<Record<string, unknown>>;
    (calls[0] as Record<string, unknown>).args = '```json\n{"file_path": "/home/dev/parser/parser.py"}\n```';
    const repaired = expectFormatLossless(geminiCliSessionFormat, value, { repair: engine.repair });
    expect(repaired.changes.map((change) => [change.rule, change.place])).toEqual([
      ["arguments_canonicalized", "messages[2]"],
    ]);
    const written = repaired.value as Session;
    expect(written.messages[2]?.toolCalls?.[0]?.args).toEqual({ file_path: "/home/dev/parser/parser.py" });
    written.messages.forEach((record, index) => {
      if (index !== 2) expect(record).toBe(value.messages[index]);
    });
  });

  it("a call recorded without a result gets an error result, as Gemini CLI records a failed call", () => {
    const value = session();
    const calls = value.messages[1]?.toolCalls as Array<Record<string, unknown>>;
    delete (calls[1] as Record<string, unknown>).result;
    const repaired = engine.repair(geminiCliSessionFormat, value);
    expect(repaired.changes.map((change) => [change.rule, change.callId])).toEqual([
      ["result_synthesized", "run_shell_command-1760799454113-2e7a9c1d0f3b5"],
    ]);
    const call = (repaired.value as Session).messages[1]?.toolCalls?.[1];
    expect(call).toMatchObject({
      status: "error",
      result: [{ functionResponse: { name: "run_shell_command", response: { error: expect.any(String) } } }],
    });
    expect(engine.check(geminiCliSessionFormat, repaired.value).issues).toEqual([]);
  });
});

describe("generated Gemini CLI sessions", () => {
  it("read then write is the session itself; repair loses nothing without naming it", () => {
    const call = fc.record({
      args: fc.oneof(fc.constantFrom(...WILD_ARGUMENTS), fc.constant({ a: 1 })),
      answered: fc.boolean(),
    });
    const turn = fc.record({ calls: fc.array(call, { maxLength: 3 }), text: fc.constantFrom("", "ok") });
    fc.assert(
      fc.property(fc.array(turn, { minLength: 1, maxLength: 4 }), (turns) => {
        const value = {
          sessionId: "s",
          projectHash: "p",
          messages: [
            { id: "u", timestamp: "t", type: "user", content: "go" },
            ...turns.map((t, i) => ({
              id: `g${i}`,
              timestamp: "t",
              type: "gemini",
              content: t.text,
              toolCalls: t.calls.map((c, k) => ({
                id: `c${i}.${k}`,
                name: "run_shell_command",
                args: c.args,
                ...(c.answered
                  ? {
                      result: [
                        {
                          functionResponse: {
                            id: `c${i}.${k}`,
                            name: "run_shell_command",
                            response: { output: "" },
                          },
                        },
                      ],
                    }
                  : {}),
                status: c.answered ? "success" : "scheduled",
              })),
            })),
            { id: "i", timestamp: "t", type: "info", content: "note" },
          ],
        };
        expect(geminiCliSessionFormat.matches(value)).toBe(true);
        expectFormatLossless(geminiCliSessionFormat, value, { repair: engine.repair });
      }),
      { numRuns: 300 },
    );
  });
});
