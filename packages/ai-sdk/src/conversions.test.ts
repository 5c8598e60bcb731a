import type { ChatMessage } from "@toolcall/core";
import { type ModelMessage, modelMessageSchema } from "ai";
import { describe, expect, it } from "vitest";
import { fromNeutralMessages } from "./from-neutral-messages.js";
import { toNeutralEntries, toNeutralMessages } from "./to-neutral-messages.js";

const call = (id: string, name: string, args: unknown) => ({
  id,
  type: "function",
  function: { name, arguments: args },
});

// A history as `generateText` leaves it in `response.messages`, with the parts a chat app persists.
const history: ModelMessage[] = [
  { role: "system", content: "Be brief." },
  { role: "user", content: [{ type: "text", text: "Weather in Paris and Lyon?" }] },
  {
    role: "assistant",
    content: [
      { type: "reasoning", text: "Two cities." },
      { type: "text", text: "Checking." },
      { type: "tool-call", toolCallId: "c1", toolName: "weather", input: { city: "Paris" } },
      {
        type: "tool-call",
        toolCallId: "c2",
        toolName: "weather",
        input: { city: "Lyon" },
        providerOptions: { google: { thoughtSignature: "sig" } },
      },
      { type: "tool-call", toolCallId: "ws", toolName: "web_search", input: {}, providerExecuted: true },
      {
        type: "tool-result",
        toolCallId: "ws",
        toolName: "web_search",
        output: { type: "json", value: { hits: 0 } },
      },
    ],
    providerOptions: { loopback: { cache: true } },
  },
  {
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId: "c1",
        toolName: "weather",
        output: { type: "text", value: "sunny" },
      },
      {
        type: "tool-result",
        toolCallId: "c2",
        toolName: "weather",
        output: { type: "json", value: { temperature: 21 } },
      },
    ],
  },
  { role: "assistant", content: "Sunny in both." },
];

describe("toNeutralMessages", () => {
  it("reads a history as @ai-sdk/openai-compatible sends it", () => {
    expect(toNeutralMessages(history)).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "Weather in Paris and Lyon?" }] },
      {
        role: "assistant",
        content: "Checking.",
        reasoning_content: "Two cities.",
        tool_calls: [
          call("c1", "weather", '{"city":"Paris"}'),
          {
            ...call("c2", "weather", '{"city":"Lyon"}'),
            extra_content: { google: { thought_signature: "sig" } },
          },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "sunny" },
      { role: "tool", tool_call_id: "c2", content: '{"temperature":21}' },
      { role: "assistant", content: "Sunny in both." },
    ]);
  });

  it("keeps what the model wrote when the SDK held a call it could not parse", () => {
    const messages: ModelMessage[] = [
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "a", toolName: "w", input: "{'city': 'Paris'}" },
          { type: "tool-call", toolCallId: "b", toolName: "w", input: [1, 2] },
          { type: "tool-call", toolCallId: "c", toolName: "w", input: undefined },
        ],
      },
    ];
    expect(toNeutralMessages(messages)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          call("a", "w", "{'city': 'Paris'}"),
          call("b", "w", [1, 2]),
          { id: "c", type: "function", function: { name: "w" } },
        ],
      },
    ]);
  });

  it("passes values that are not AI SDK messages through, and leaves out a tool message with no result", () => {
    const approvals = {
      role: "tool",
      content: [{ type: "tool-approval-response", approvalId: "a1", approved: true }],
    };
    expect(toNeutralMessages(["x", null, approvals] as never)).toEqual(["x", null]);
  });
});

describe("fromNeutralMessages", () => {
  it("builds AI SDK messages that the SDK's own schema accepts", () => {
    const neutral: ChatMessage[] = [
      { role: "developer", content: "rules" },
      { role: "user", content: "weather?" },
      {
        role: "assistant",
        content: null,
        reasoning_content: "…",
        tool_calls: [call("a", "w", '{"city": "Paris"}'), call("b", "w", "{oops"), call("c", "w", "")],
      },
      { role: "tool", tool_call_id: "a", content: "sunny" },
      { role: "tool", tool_call_id: "b", content: [{ type: "text", text: "error" }] },
      { role: "tool", tool_call_id: "c", content: "ok" },
      { role: "assistant", content: "Done." },
    ];
    const messages = fromNeutralMessages(neutral);
    for (const message of messages) expect(modelMessageSchema.safeParse(message).success).toBe(true);
    expect(messages).toEqual([
      { role: "system", content: "rules" },
      { role: "user", content: "weather?" },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "…" },
          { type: "tool-call", toolCallId: "a", toolName: "w", input: { city: "Paris" } },
          { type: "tool-call", toolCallId: "b", toolName: "w", input: "{oops" },
          { type: "tool-call", toolCallId: "c", toolName: "w", input: "" },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "a", toolName: "w", output: { type: "text", value: "sunny" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "b",
            toolName: "w",
            output: { type: "content", value: [{ type: "text", text: "error" }] },
          },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "c", toolName: "w", output: { type: "text", value: "ok" } },
        ],
      },
      { role: "assistant", content: "Done." },
    ]);
    // Back again: every neutral message as it was, arguments byte for byte, the developer role too.
    expect(toNeutralMessages(messages)).toEqual(neutral);
  });

  it("writes a prompt's content as lists", () => {
    expect(
      fromNeutralMessages(
        [
          { role: "user", content: "hi" },
          { role: "assistant", content: "hello" },
        ],
        { form: "prompt" },
      ),
    ).toEqual([
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "assistant", content: [{ type: "text", text: "hello" }] },
    ]);
  });
});

describe("round trips", () => {
  it("AI SDK → neutral → AI SDK gives the very messages back", () => {
    const back = fromNeutralMessages(toNeutralMessages(history));
    expect(back).toHaveLength(history.length);
    for (const [i, message] of back.entries()) expect(message).toBe(history[i]);
  });

  it("a changed call keeps every other part, option and result of its message", () => {
    // Tags that survive object spread, as the sanitizers use them.
    const neutral = toNeutralEntries(history, { enumerable: true, sanitizer: true }) as ChatMessage[];
    const assistant = neutral[2] as ChatMessage & { tool_calls: ReturnType<typeof call>[] };
    const [first, second] = assistant.tool_calls;
    neutral[2] = {
      ...assistant,
      tool_calls: [
        { ...first, id: "c1b", function: { ...first?.function, arguments: '{"city":"Nice"}' } },
        second,
      ],
    } as ChatMessage;
    neutral[3] = { ...neutral[3], tool_call_id: "c1b" };
    const back = fromNeutralMessages(neutral);
    expect(back[2]).toEqual({
      ...history[2],
      content: [
        { type: "reasoning", text: "Two cities." },
        { type: "text", text: "Checking." },
        { type: "tool-call", toolCallId: "c1b", toolName: "weather", input: { city: "Nice" } },
        ...((history[2] as { content: unknown[] }).content.slice(3) as never[]),
      ],
    });
    expect((back[2] as { content: unknown[] }).content[3]).toBe(
      (history[2] as { content: unknown[] }).content[3],
    );
    expect(back[3]).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1b",
          toolName: "weather",
          output: { type: "text", value: "sunny" },
        },
        (history[3] as { content: unknown[] }).content[1],
      ],
    });
    expect(back[4]).toBe(history[4]);
  });

  it("a neutral message copied without its link to the AI SDK message is built anew from its fields", () => {
    const neutral = toNeutralMessages(history).map((message) => ({ ...message }));
    const back = fromNeutralMessages(neutral);
    expect(back[2]).toEqual({
      role: "assistant",
      content: [
        { type: "reasoning", text: "Two cities." },
        { type: "text", text: "Checking." },
        { type: "tool-call", toolCallId: "c1", toolName: "weather", input: { city: "Paris" } },
        {
          type: "tool-call",
          toolCallId: "c2",
          toolName: "weather",
          input: { city: "Lyon" },
          providerOptions: { google: { thoughtSignature: "sig" } },
        },
      ],
    });
  });

  it("a dropped call takes its approval request with it; a new result becomes its own tool message", () => {
    const messages: ModelMessage[] = [
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "a", toolName: "rm", input: {} },
          { type: "tool-approval-request", approvalId: "p1", toolCallId: "a" },
          { type: "tool-call", toolCallId: "b", toolName: "ls", input: {} },
        ],
      },
    ];
    const neutral = toNeutralEntries(messages, { enumerable: true, sanitizer: true }) as ChatMessage[];
    const assistant = neutral[0] as ChatMessage & { tool_calls: unknown[] };
    const back = fromNeutralMessages([
      { ...assistant, tool_calls: assistant.tool_calls.slice(1) },
      { role: "tool", tool_call_id: "b", content: "[no result]" },
    ]);
    expect(back).toEqual([
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "b", toolName: "ls", input: {} }] },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "b",
            toolName: "ls",
            output: { type: "text", value: "[no result]" },
          },
        ],
      },
    ]);
  });
});
