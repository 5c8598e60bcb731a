import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { WILD_ARGUMENTS } from "@toolcall/conformance";
import { expectConversationFormat, expectFormatLossless } from "@toolcall/conformance/vitest";
import {
  coreRepairs,
  createRecordEngine,
  type SanitizeOptions,
  sanitizeHistory,
  validateHistory,
} from "@toolcall/core";
import { type ConversationFormat, createFormatRegistry, isPlainObject } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  codexRolloutFormat,
  openaiChatChunksFormat,
  openaiChatCompletionFormat,
  openaiChatFormat,
  openaiFormats,
  openaiResponsesFormat,
} from "../../src/index.js";

// The conversation-format contract (@toolcall/conformance) on one record, sanitized by core.
const checkRoundTrip = (
  format: ConversationFormat,
  value: unknown,
  options: SanitizeOptions = { repairs: coreRepairs },
) => expectConversationFormat(format, value, { sanitize: sanitizeHistory, options });
const asData = (value: unknown): unknown => JSON.parse(JSON.stringify(value)); // as a file holds it

const fixtures = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const jsonl = (name: string): unknown[] =>
  readFileSync(join(fixtures, name), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
/** The JSON of each `data:` line of a server-sent event stream (`[DONE]` is not a chunk). */
const sse = (name: string): unknown[] =>
  readFileSync(join(fixtures, name), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice(6)));

const detect = (value: unknown) => openaiFormats.find((f) => f.unit === "record" && f.matches(value));
const detectSession = (lines: unknown[]) =>
  openaiFormats.find((f) => f.unit === "session" && f.matches(lines));

/** Error codes core finds in every conversation of a record read through a format. */
function errorCodes(format: typeof openaiChatFormat, value: unknown): string[] {
  return format.read(value).conversations.flatMap((c) =>
    validateHistory(c.messages, {
      ...(c.tools ? { tools: c.tools } : {}),
      finishReason: c.finishReason ?? null,
      pendingCalls: "pending",
      repairs: coreRepairs,
    })
      .filter((i) => i.severity === "error")
      .map((i) => i.code),
  );
}

describe("the format-author lossless check (@toolcall/conformance) on every real file", () => {
  const engine = createRecordEngine();
  const registry = createFormatRegistry(openaiFormats);
  it.each([
    ["chat-requests.jsonl", "openai-chat"],
    ["chat-completions.jsonl", "openai-chat-completion"],
    ["responses-requests.jsonl", "openai-responses"],
    ["responses.jsonl", "openai-responses"],
  ])("%s, each record, and its calls with wild arguments", (name, id) => {
    for (const value of jsonl(name)) {
      expect(registry.detect(value, "record")?.format.id).toBe(id);
      const format = registry.detect(value, "record")?.format as ConversationFormat;
      expectFormatLossless(format, value, { repair: engine.repair });
      for (const text of WILD_ARGUMENTS) {
        const wild = JSON.parse(JSON.stringify(value), (key, item) => (key === "arguments" ? text : item));
        expectFormatLossless(format, wild, { repair: engine.repair });
      }
    }
  });
  it.each([["codex-rollout.jsonl"], ["kimi-cli-context.lookalike.jsonl"]])("%s, a session", (name) => {
    const lines = jsonl(name);
    const format = registry.detect(lines, "session")?.format as ConversationFormat;
    expect(format?.unit).toBe("session");
    expectFormatLossless(format, lines, { repair: engine.repair });
  });
  it("a recorded stream, a session of chunks", () => {
    const chunks = sse("chat-stream-parallel.sse");
    expectFormatLossless(openaiChatChunksFormat, chunks, { repair: engine.repair });
  });
});

describe("real recorded traffic", () => {
  it("Chat Completions request bodies: detected as Chat, written back untouched, no error in any (all answered 200)", () => {
    const requests = jsonl("chat-requests.jsonl");
    expect(requests).toHaveLength(26);
    for (const request of requests) {
      expect(detect(request)).toBe(openaiChatFormat);
      expect(errorCodes(openaiChatFormat, request)).toEqual([]);
      checkRoundTrip(openaiChatFormat, request);
    }
  });

  it("chat.completion responses: detected as responses, each choice an answer whose calls are pending", () => {
    const responses = jsonl("chat-completions.jsonl");
    let calls = 0;
    for (const response of responses) {
      expect(detect(response)).toBe(openaiChatCompletionFormat);
      const reading = openaiChatCompletionFormat.read(response);
      expect(reading.conversations.every((c) => c.answer === true)).toBe(true);
      calls += reading.conversations.reduce(
        (n, c) => n + ((c.messages[0]?.tool_calls as unknown[] | undefined)?.length ?? 0),
        0,
      );
      const { changes } = checkRoundTrip(openaiChatCompletionFormat, response);
      // Only Gemini's call without an id is changed (an id assigned); nothing else needs a repair.
      if (changes > 0) expect(JSON.stringify(response)).toContain("thought_signature");
    }
    expect(calls).toBeGreaterThanOrEqual(13);
  });

  it("a recorded stream: detected as a chunk log; two parallel calls assembled with their ids and arguments", () => {
    const chunks = sse("chat-stream-parallel.sse");
    expect(detectSession(chunks)).toBe(openaiChatChunksFormat);
    const reading = openaiChatChunksFormat.read(chunks);
    expect(reading.conversations).toHaveLength(1);
    const [message] = reading.conversations[0]?.messages ?? [];
    expect(asData(message)).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "call_q2UyBRP7eXNTzAoR8lEhjc9Z",
          type: "function",
          function: { name: "get_country", arguments: "{}" },
        },
        {
          id: "call_b51ijcpFkDiTQG1bQzsrmtW5",
          type: "function",
          function: { name: "get_product_name", arguments: "{}" },
        },
      ],
    });
    expect(reading.conversations[0]?.finishReason).toBe("tool_calls");
    checkRoundTrip(openaiChatChunksFormat, chunks);
  });

  it("Responses request bodies: detected, outputs for calls a stored response holds are not orphans", () => {
    const requests = jsonl("responses-requests.jsonl");
    for (const request of requests) {
      expect(detect(request)).toBe(openaiResponsesFormat);
      checkRoundTrip(openaiResponsesFormat, request);
    }
    // Request 7 continues a conversation: its only input is an output for a call the server holds.
    expect(errorCodes(openaiResponsesFormat, requests[7])).toEqual([]);
    // The one error left is a call in history to a tool this request no longer offers; OpenAI answered it 200.
    expect(requests.flatMap((r) => errorCodes(openaiResponsesFormat, r))).toEqual(["unknown_tool"]);
  });

  it("Responses responses: answers, their calls pending, nothing to repair", () => {
    for (const response of jsonl("responses.jsonl")) {
      expect(detect(response)).toBe(openaiResponsesFormat);
      const reading = openaiResponsesFormat.read(response);
      expect(reading.conversations[0]?.answer).toBe(true);
      expect(checkRoundTrip(openaiResponsesFormat, response).changes).toBe(0);
    }
  });

  it("a Codex CLI session: detected, its calls and outputs paired, every line kept", () => {
    const lines = jsonl("codex-rollout.jsonl");
    expect(detectSession(lines)).toBe(codexRolloutFormat);
    const [conversation] = codexRolloutFormat.read(lines).conversations;
    const messages = asData(conversation?.messages) as Array<Record<string, unknown>>;
    expect(messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(validateHistory(conversation?.messages ?? [])).toEqual([]);
    expect(conversation?.placeOf?.([1, "tool_calls", 0, "function", "arguments"])).toBe("record 6 (payload)");
    checkRoundTrip(codexRolloutFormat, lines);
  });
});

describe("repairs written back in place", () => {
  it("a broken call in a request body: only its arguments change; every other key and message is the same object", () => {
    const request = jsonl("chat-requests.jsonl").find(
      (r) => isPlainObject(r) && JSON.stringify(r).includes('"tool_calls"'),
    ) as Record<string, unknown>;
    const messages = [...(request.messages as Array<Record<string, unknown>>)];
    const at = messages.findIndex((m) => Array.isArray(m.tool_calls));
    const message = messages[at] as { tool_calls: Array<{ function: Record<string, unknown> }> };
    const call = message.tool_calls[0] as { function: Record<string, unknown> };
    const broken = {
      ...message,
      tool_calls: [{ ...call, function: { ...call.function, arguments: "```json\n{}\n```" } }],
    };
    messages[at] = broken;
    const input = { ...request, messages };
    const { value, changes } = checkRoundTrip(openaiChatFormat, input);
    expect(changes).toBe(1);
    const out = value as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(Object.keys(input));
    const outMessages = out.messages as unknown[];
    outMessages.forEach((m, i) => {
      if (i !== at) expect(m).toBe(messages[i]);
    });
  });

  it("a stream cut in the middle of a call: truncated, never repaired into a call that runs", () => {
    const chunks = sse("chat-stream-parallel.sse").slice(0, 4) as Array<Record<string, unknown>>;
    const cut = JSON.parse(
      JSON.stringify(chunks[2]).replace('"arguments":"{}"', '"arguments":"{\\"country\\": \\"Fr"'),
    ) as Record<string, unknown>;
    const log = [chunks[0], chunks[1], cut];
    expect(errorCodes(openaiChatChunksFormat, log)).toEqual(["arguments_truncated"]);
  });

  it("an empty streamed argument text becomes {} in the call's first fragment, the later fragments emptied", () => {
    const chunk = (n: number, call: Record<string, unknown>) => ({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta: { tool_calls: [{ index: 0, ...call }] }, finish_reason: null }],
      n,
    });
    const log = [
      chunk(0, { id: "call_1", type: "function", function: { name: "f", arguments: "```json\n" } }),
      chunk(1, { function: { arguments: '{"a": 1}\n' } }),
      chunk(2, { function: { arguments: "```" } }),
      {
        id: "chatcmpl-1",
        object: "chat.completion.chunk",
        choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }],
      },
    ];
    const { value } = checkRoundTrip(openaiChatChunksFormat, log);
    const out = value as typeof log;
    expect(asData(out.map((c) => c.choices[0]?.delta))).toEqual([
      {
        tool_calls: [
          { index: 0, id: "call_1", type: "function", function: { name: "f", arguments: '{"a":1}' } },
        ],
      },
      { tool_calls: [{ index: 0, function: { arguments: "" } }] },
      { tool_calls: [{ index: 0, function: { arguments: "" } }] },
      {},
    ]);
    expect(out[3]).toBe(log[3]);
  });

  it("a Codex session saved while a tool ran: the call is pending, and repair with pendingCalls keep leaves it", () => {
    const lines = jsonl("codex-rollout.jsonl").slice(0, 6);
    const [conversation] = codexRolloutFormat.read(lines).conversations;
    expect(
      validateHistory(conversation?.messages ?? [], { pendingCalls: "pending" }).map((i) => i.code),
    ).toEqual(["tool_result_pending"]);
    expect(checkRoundTrip(codexRolloutFormat, lines, { pendingCalls: "keep" }).changes).toBe(0);
    // Asked to synthesize, the result goes after the call's line, with its timestamp.
    const { value } = checkRoundTrip(codexRolloutFormat, lines, { pendingCalls: "synthesize" });
    const out = value as Array<Record<string, unknown>>;
    expect(out).toHaveLength(7);
    expect(out.slice(0, 6).every((line, i) => line === lines[i])).toBe(true);
    expect(out[6]).toMatchObject({
      timestamp: "2026-01-02T03:04:09.000Z",
      type: "response_item",
      payload: { type: "function_call_output", call_id: "call-structured-001" },
    });
  });
});

const argumentTexts = fc.constantFrom(
  "{}",
  '{"city":"Paris"}',
  "",
  "null",
  '```json\n{"a":1}\n```',
  "{'a': True}",
  '{"a":1}{"a":1}',
  '"{\\"a\\":1}"',
  "[1, 2]",
  "{not json",
);
const ids = fc.constantFrom("c1", "c2", "c3", "");

describe("generated records", () => {
  it("Responses item lists: read, repair, write and read again give the repaired history; untouched lists stay the same object", () => {
    const item = fc.oneof(
      fc.record({
        type: fc.constant("message"),
        role: fc.constantFrom("user", "assistant"),
        content: fc.string(),
      }),
      fc.record({
        type: fc.constant("function_call"),
        call_id: ids,
        name: fc.constantFrom("f", "g"),
        arguments: argumentTexts,
      }),
      fc.record({ type: fc.constant("function_call_output"), call_id: ids, output: fc.string() }),
      fc.record({ type: fc.constant("reasoning"), summary: fc.constant([]) }),
    );
    const list = fc
      .array(item, { minLength: 1, maxLength: 10 })
      .filter((items) => items.some((i) => i.type !== "message"));
    fc.assert(
      fc.property(
        list,
        fc.constantFrom("preserve", "drop", "empty"),
        fc.constantFrom("synthesize", "drop-call"),
        (items, policy, missingResult) => {
          checkRoundTrip(openaiResponsesFormat, items, {
            repairs: coreRepairs,
            policy: policy as "preserve",
            missingResult: missingResult as "synthesize",
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it("chunk logs: any split of any argument text assembles and writes back to the repaired call", () => {
    const stream = fc.array(
      fc.record({
        id: fc.constantFrom("call_a", "call_b", "call_c"),
        text: argumentTexts,
        cuts: fc.array(fc.nat(), { maxLength: 3 }),
      }),
      { minLength: 1, maxLength: 3 },
    );
    fc.assert(
      fc.property(stream, fc.constantFrom("tool_calls", "length", null), (calls, finish) => {
        const chunks: unknown[] = [];
        calls.forEach((call, index) => {
          const points = [...new Set(call.cuts.map((c) => c % (call.text.length + 1)))].sort((a, b) => a - b);
          const pieces: string[] = [];
          let last = 0;
          for (const p of points) {
            pieces.push(call.text.slice(last, p));
            last = p;
          }
          pieces.push(call.text.slice(last));
          pieces.forEach((piece, k) => {
            const delta =
              k === 0
                ? {
                    index,
                    id: `${call.id}_${index}`,
                    type: "function",
                    function: { name: "f", arguments: piece },
                  }
                : { index, function: { arguments: piece } };
            chunks.push({
              id: "chatcmpl-x",
              object: "chat.completion.chunk",
              choices: [{ index: 0, delta: { tool_calls: [delta] }, finish_reason: null }],
            });
          });
        });
        if (finish !== null)
          chunks.push({
            id: "chatcmpl-x",
            object: "chat.completion.chunk",
            choices: [{ index: 0, delta: {}, finish_reason: finish }],
          });
        checkRoundTrip(openaiChatChunksFormat, chunks);
      }),
      { numRuns: 500 },
    );
  });
});
