import fc from "fast-check";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { chatMessagesToResponsesInput, responsesInputToChatMessages } from "./convert-messages.js";
import { sanitizeResponsesInput } from "./sanitize-responses-input.js";

const id = fc.stringMatching(/^call_[A-Za-z0-9]{1,12}$/);
const objectText = fc
  .dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 })
  .map((value) => JSON.stringify(value));
const call = fc.record({
  id,
  type: fc.constant("function" as const),
  function: fc.record({ name: fc.stringMatching(/^[a-z_]{1,10}$/), arguments: objectText }),
});
const text = fc.string({ minLength: 1 });
const message: fc.Arbitrary<ChatCompletionMessageParam> = fc.oneof(
  fc.record({
    role: fc.constantFrom("system" as const, "user" as const, "developer" as const),
    content: text,
  }),
  fc.record({ role: fc.constant("assistant" as const), content: text }),
  fc.record({
    role: fc.constant("assistant" as const),
    content: fc.constant(null),
    tool_calls: fc.array(call, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({
    role: fc.constant("assistant" as const),
    content: text,
    tool_calls: fc.array(call, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ role: fc.constant("tool" as const), tool_call_id: id, content: text }),
);

describe("Chat Completions ↔ Responses input", () => {
  it("round-trips valid messages and calls: chat → responses → chat is the identity", () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), (messages) => {
        const { input, unconverted } = chatMessagesToResponsesInput(messages);
        expect(unconverted).toEqual([]);
        const back = responsesInputToChatMessages(input);
        expect(back.unconverted).toEqual([]);
        expect(normalize(back.messages)).toEqual(normalize(messages));
      }),
    );
  });

  it("keeps pairing: call ids become call_id and tool messages answer them", () => {
    const { input } = chatMessagesToResponsesInput([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "done" },
    ]);
    expect(input).toEqual([
      { type: "function_call", call_id: "call_1", name: "f", arguments: "{}" },
      { type: "function_call_output", call_id: "call_1", output: "done" },
    ]);
  });

  it("reads a call without `type` as a function call, and reports a call that is neither kind", () => {
    const untyped = { id: "call_1", function: { name: "f", arguments: "{}" } };
    const neither = { id: "call_2", type: "custom", name: "g" };
    const noFunction = { id: "call_3", type: "function" };
    const messages = [
      { role: "assistant", content: null, tool_calls: [untyped] },
      { role: "tool", tool_call_id: "call_1", content: "ok" },
      { role: "assistant", content: null, tool_calls: [neither, noFunction] },
      { role: "tool", tool_call_id: "call_2", content: "ok" },
      { role: "tool", tool_call_id: "call_3", content: "ok" },
    ] as unknown as ChatCompletionMessageParam[];
    const { input, unconverted } = chatMessagesToResponsesInput(messages);
    expect(input).toEqual([
      { type: "function_call", call_id: "call_1", name: "f", arguments: "{}" },
      { type: "function_call_output", call_id: "call_1", output: "ok" },
    ]);
    // The calls with no Responses form, and their results, which would answer no call.
    expect(unconverted.map((entry) => entry.index)).toEqual([2, 3, 4]);
  });

  it("reports items Chat Completions cannot hold", () => {
    const reasoning = { type: "reasoning" as const, id: "rs_1", summary: [] };
    expect(responsesInputToChatMessages([reasoning]).unconverted).toEqual([{ index: 0, value: reasoning }]);
  });
});

/**
 * The Responses side has no message boundary between an assistant's text and the calls after it: calls that follow
 * an assistant message belong to its turn. The same merge on the Chat side gives what comes back.
 */
function normalize(messages: ChatCompletionMessageParam[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  for (const message of messages) {
    const last = out[out.length - 1];
    if (message.role === "assistant" && message.content === null && last?.role === "assistant") {
      out[out.length - 1] = {
        ...last,
        tool_calls: [...(last.tool_calls ?? []), ...(message.tool_calls ?? [])],
      };
    } else out.push(message);
  }
  return out;
}

describe("sanitizeResponsesInput", () => {
  it("returns the same array when nothing needs fixing, and fixes a poisoned one keeping other items", () => {
    const ask = { type: "message" as const, role: "user" as const, content: "Go." };
    const clean = [
      ask,
      { type: "function_call" as const, call_id: "c1", name: "f", arguments: '{"a": 1}', id: "fc_1" },
      { type: "function_call_output" as const, call_id: "c1", output: "ok" },
    ];
    expect(sanitizeResponsesInput(clean).input).toBe(clean);
    const reasoning = { type: "reasoning" as const, id: "rs_1", summary: [] };
    const poisoned = [
      ask,
      reasoning,
      { type: "function_call" as const, call_id: "c1", name: "f", arguments: "null", id: "fc_1" },
      { type: "function_call" as const, call_id: "c2", name: "g", arguments: "{oops", id: "fc_2" },
      { type: "function_call_output" as const, call_id: "c1", output: "ok" },
      { type: "function_call_output" as const, call_id: "c9", output: "stale" },
    ];
    const { input, changes } = sanitizeResponsesInput(poisoned);
    expect(input).toEqual([
      ask,
      reasoning,
      { type: "function_call", call_id: "c1", name: "f", arguments: "{}", id: "fc_1" },
      {
        type: "function_call",
        call_id: "c2",
        name: "g",
        arguments: '{"_raw_arguments":"{oops"}',
        id: "fc_2",
      },
      { type: "function_call_output", call_id: "c1", output: "ok" },
      { type: "function_call_output", call_id: "c2", output: "[no result was recorded for this tool call]" },
    ]);
    expect(input[1]).toBe(reasoning);
    expect(changes.map((c) => [c.rule, c.messageIndex])).toEqual([
      ["arguments_canonicalized", 2],
      ["arguments_raw_preserved", 2],
      ["result_dropped_orphan", 5],
      ["result_synthesized", 2],
    ]);
  });
});
