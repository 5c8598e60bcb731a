import { coreRepairs } from "@toolcall/core";
import { convertToModelMessages, type UIMessage, validateUIMessages } from "ai";
import { describe, expect, it } from "vitest";
import { sanitizeUIMessages } from "./sanitize-ui-messages.js";

const SYNTHETIC = "[no result was recorded for this tool call]";
const user = (id: string, text: string): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });

// Tool parts in every state a saved chat can hold, as the AI SDK writes them (see ai's UIToolInvocation type).
const chat: UIMessage[] = [
  user("u1", "Plan my day."),
  {
    id: "a1",
    role: "assistant",
    parts: [
      { type: "step-start" },
      { type: "text", text: "Checking." },
      {
        type: "tool-weather",
        toolCallId: "w1",
        state: "output-available",
        input: { location: "Paris" },
        output: { sky: "sunny" },
      },
      {
        type: "tool-weather",
        toolCallId: "w2",
        state: "output-error",
        input: undefined,
        rawInput: '```json\n{"location": "Lyon"}\n```',
        errorText: "Invalid input",
      },
      {
        type: "tool-delete",
        toolCallId: "d1",
        state: "output-denied",
        input: {},
        approval: { id: "p1", approved: false, reason: "no" },
      },
      {
        type: "tool-delete",
        toolCallId: "d2",
        state: "approval-requested",
        input: {},
        approval: { id: "p2" },
      },
      {
        type: "dynamic-tool",
        toolName: "search",
        toolCallId: "s1",
        state: "input-available",
        input: { q: "x" },
      },
      {
        type: "tool-weather",
        toolCallId: "w3",
        state: "input-streaming",
        input: { location: "Ni" },
        rawInput: '{"location": "Ni',
      },
      {
        type: "tool-web_search",
        toolCallId: "ws",
        state: "output-available",
        input: {},
        output: [],
        providerExecuted: true,
      },
      { type: "step-start" },
      { type: "text", text: "Done." },
    ],
  },
  user("u2", "Thanks."),
];

describe("sanitizeUIMessages", () => {
  it("gives every call of a finished turn an object input and a result; leaves the rest as it was", async () => {
    const frozen = structuredClone(chat);
    const { messages, changes } = sanitizeUIMessages(chat, { repairs: coreRepairs });
    expect(chat).toEqual(frozen);
    expect(await validateUIMessages({ messages })).toEqual(messages);
    expect(messages[0]).toBe(chat[0]);
    expect(messages[2]).toBe(chat[2]);
    const parts = messages[1]?.parts ?? [];
    const before = chat[1]?.parts ?? [];
    for (const index of [0, 1, 2, 4, 8, 9, 10]) expect(parts[index]).toBe(before[index]);
    expect(parts[3]).toEqual({ ...before[3], input: { location: "Lyon" } });
    expect(parts[5]).toEqual({
      type: "tool-delete",
      toolCallId: "d2",
      state: "output-error",
      input: {},
      errorText: SYNTHETIC,
    });
    expect(parts[6]).toEqual({
      type: "dynamic-tool",
      toolName: "search",
      toolCallId: "s1",
      state: "output-error",
      input: { q: "x" },
      errorText: SYNTHETIC,
    });
    expect(parts[7]).toEqual({
      type: "tool-weather",
      toolCallId: "w3",
      state: "output-error",
      input: { _raw_arguments: '{"location": "Ni' },
      rawInput: '{"location": "Ni',
      errorText: SYNTHETIC,
    });
    expect(changes.map(({ rule, messageIndex, toolCallId }) => [rule, messageIndex, toolCallId])).toEqual([
      ["arguments_canonicalized", 1, "w2"],
      ["arguments_canonicalized", 1, "w3"],
      ["result_synthesized", 1, "d2"],
      ["result_synthesized", 1, "s1"],
      ["result_synthesized", 1, "w3"],
    ]);
    // What the SDK sends from it now pairs every call with a result.
    const model = await convertToModelMessages(messages);
    type Part = { type: string; toolCallId?: string; providerExecuted?: boolean };
    const modelParts = model.flatMap((m) => (Array.isArray(m.content) ? (m.content as Part[]) : []));
    const calls = modelParts
      .filter((p) => p.type === "tool-call" && !p.providerExecuted)
      .map((p) => p.toolCallId);
    const results = model
      .filter((m) => m.role === "tool")
      .flatMap((m) => m.content as Part[])
      .filter((p) => p.type === "tool-result")
      .map((p) => p.toolCallId);
    expect(results.sort()).toEqual(calls.sort());
  });

  it("is idempotent and returns the input itself when nothing needs fixing", () => {
    const once = sanitizeUIMessages(chat, { repairs: coreRepairs }).messages;
    const twice = sanitizeUIMessages(once, { repairs: coreRepairs });
    expect(twice.messages).toBe(once);
    expect(twice.changes).toEqual([]);
  });

  it("leaves calls still waiting in the last message to the client", () => {
    const waiting: UIMessage[] = [
      chat[0] as UIMessage,
      { ...(chat[1] as UIMessage), parts: (chat[1] as UIMessage).parts.slice(0, 9) },
    ];
    const { messages } = sanitizeUIMessages(waiting, { repairs: coreRepairs });
    const parts = messages[1]?.parts ?? [];
    expect(parts[5]).toBe(waiting[1]?.parts[5]); // approval-requested
    expect(parts[6]).toBe(waiting[1]?.parts[6]); // input-available
    expect(parts[7]).toMatchObject({ state: "output-error" }); // a cut call never comes back
  });

  it("renames a call id used twice, in the part that holds both call and result", () => {
    const twice: UIMessage[] = [
      user("u1", "Two cities."),
      {
        id: "a1",
        role: "assistant",
        parts: [
          {
            type: "tool-weather",
            toolCallId: "call_0",
            state: "output-available",
            input: { location: "Paris" },
            output: "sunny",
          },
          { type: "step-start" },
          {
            type: "tool-weather",
            toolCallId: "call_0",
            state: "output-available",
            input: { location: "Lyon" },
            output: "rain",
          },
        ],
      },
    ];
    const { messages } = sanitizeUIMessages(twice);
    expect(messages[1]?.parts.map((p) => ("toolCallId" in p ? p.toolCallId : p.type))).toEqual([
      "call_0",
      "step-start",
      "call_0_2",
    ]);
  });

  it("drops a call under policy drop, and a message left with nothing", () => {
    const bad: UIMessage[] = [
      user("u1", "Go."),
      {
        id: "a1",
        role: "assistant",
        parts: [
          {
            type: "tool-weather",
            toolCallId: "w",
            state: "output-error",
            input: undefined,
            rawInput: "{oops",
            errorText: "bad",
          },
        ],
      },
      user("u2", "Again."),
    ];
    const { messages, changes } = sanitizeUIMessages(bad, { policy: "drop" });
    expect(messages).toEqual([bad[0], bad[2]]);
    expect(changes.map((change) => change.rule)).toEqual([
      "call_dropped",
      "result_dropped_with_call",
      "message_removed_empty",
    ]);
  });

  it("passes values that are not UI messages through", () => {
    const odd = [null, "x", { id: "m", role: "user" }] as never[];
    expect(sanitizeUIMessages(odd).messages).toBe(odd);
  });

  it("maps a provider profile's fixes back onto the parts: ids, blank text, a user message's text", () => {
    const history = [
      user("u1", "Weather?"),
      {
        id: "a1",
        role: "assistant",
        parts: [
          { type: "text", text: " " },
          {
            type: "tool-weather",
            toolCallId: "call.1:x",
            state: "output-available",
            input: { location: "Paris" },
            output: "sunny",
          },
        ],
      },
      user("u2", ""),
      user("u3", "Thanks"),
    ] as UIMessage[];
    const { messages, changes } = sanitizeUIMessages(history, { provider: "anthropic" });
    expect(changes.map((change) => [change.rule, change.messageIndex])).toEqual([
      ["call_id_remapped", 1],
      ["call_id_remapped", 1],
      ["content_replaced", 1],
      ["content_replaced", 2],
    ]);
    expect(messages).toEqual([
      history[0],
      { id: "a1", role: "assistant", parts: [{ ...history[1]?.parts[1], toolCallId: "call_1_x" }] },
      { id: "u2", role: "user", parts: [{ type: "text", text: "(empty)" }] },
      history[3],
    ]);
    expect(messages[3]).toBe(history[3]);
  });
});
