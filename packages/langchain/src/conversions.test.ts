import {
  AIMessage,
  AIMessageChunk,
  HumanMessage,
  ChatMessage as LangChainChatMessage,
  RemoveMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import type { ChatMessage } from "@toolcall/core";
import { describe, expect, it } from "vitest";
import { collectToolCalls } from "./collect-tool-calls.js";
import { fromNeutralMessage, fromNeutralMessages } from "./from-neutral-messages.js";
import { toNeutralMessage, toNeutralMessages } from "./to-neutral-messages.js";

const call = (id: string, name: string, args: unknown) => ({
  id,
  type: "function",
  function: { name, arguments: args },
});

describe("toNeutralMessages", () => {
  it("maps every role LangChain has onto OpenAI's", () => {
    const remove = new RemoveMessage({ id: "m1" });
    expect(
      toNeutralMessages([
        new SystemMessage("rules"),
        new SystemMessage({ content: "dev", additional_kwargs: { __openai_role__: "developer" } }),
        new HumanMessage({ content: "hi", name: "ana" }),
        new AIMessage("hello"),
        new ToolMessage({ content: "sunny", tool_call_id: "c1" }),
        new LangChainChatMessage({ content: "x", role: "critic" }),
        remove,
      ]),
    ).toEqual([
      { role: "system", content: "rules" },
      { role: "developer", content: "dev" },
      { role: "user", content: "hi", name: "ana" },
      { role: "assistant", content: "hello" },
      { role: "tool", tool_call_id: "c1", content: "sunny" },
      { role: "critic", content: "x" },
      remove,
    ]);
  });

  it("writes a hand-built call's args as compact JSON, and empty assistant content as null", () => {
    const message = new AIMessage({
      content: "",
      tool_calls: [{ id: "c1", name: "w", args: { city: "Paris" } }],
    });
    expect(toNeutralMessage(message)).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [call("c1", "w", '{"city":"Paris"}')],
    });
  });

  it("keeps the provider's bytes when LangChain's args were parsed from them", () => {
    const wire = [call("c1", "w", '{ "city" :  "Paris" }')];
    const message = new AIMessage({ content: "", additional_kwargs: { tool_calls: wire as never } });
    expect(collectToolCalls(message)?.map((entry) => entry.call)).toEqual(wire);
  });

  it("takes args that code changed after parsing over the provider's text", () => {
    const message = new AIMessage({
      content: "",
      tool_calls: [{ id: "c1", name: "w", args: { city: "Lyon" } }],
      additional_kwargs: { tool_calls: [call("c1", "w", '{"city": "Paris"}')] as never },
    });
    expect(collectToolCalls(message)?.[0]?.call).toEqual(call("c1", "w", '{"city":"Lyon"}'));
  });

  it("sees through LangChain's parses: `42` as a number, cut-off text completed by partial JSON", () => {
    const scalar = new AIMessage({
      content: "",
      tool_calls: [{ id: "c1", name: "w", args: 42 as never }],
      additional_kwargs: { tool_calls: [call("c1", "w", "42")] as never },
    });
    expect(collectToolCalls(scalar)?.[0]?.call).toEqual(call("c1", "w", "42"));
    // A streamed message stored and restored as a whole AIMessage: args were completed from cut-off text.
    const restored = new AIMessage({
      content: "",
      tool_calls: [{ id: "c1", name: "w", args: { city: "Par" } }],
      additional_kwargs: { tool_calls: [call("c1", "w", '{"city": "Par')] as never },
    });
    expect(collectToolCalls(restored)?.[0]?.call).toEqual(call("c1", "w", '{"city": "Par'));
  });

  it("keeps the provider's order when valid and invalid calls interleave", () => {
    const wire = [call("a", "w", "{oops"), call("b", "w", "{}"), call("c", "w", "")];
    const message = new AIMessage({ content: "", additional_kwargs: { tool_calls: wire as never } });
    expect(message.tool_calls?.map((c) => c.id)).toEqual(["b"]);
    expect(toNeutralMessage(message)).toMatchObject({ tool_calls: wire });
  });

  it("sends the provider's list as it is when LangChain holds no calls, as ChatOpenAI would", () => {
    const wire = [call("a", "w", "{oops")];
    const message = new AIMessage({
      content: "",
      tool_calls: [],
      invalid_tool_calls: [],
      additional_kwargs: { tool_calls: wire as never },
    });
    expect(toNeutralMessage(message)).toMatchObject({ tool_calls: wire });
  });

  it("accumulates a chunk's fragments with core's stream rules, not LangChain's concatenation", () => {
    // vLLM's Hermes parser can end with a frame repeating the complete arguments: LangChain appends it.
    const pieces = ['{"city":', ' "Paris"}', '{"city": "Paris"}'];
    const chunks = pieces.map(
      (args, i) =>
        new AIMessageChunk({
          content: "",
          tool_call_chunks: [
            { index: 0, ...(i === 0 ? { id: "a", name: "w" } : {}), args, type: "tool_call_chunk" },
          ],
        }),
    );
    const fragments = chunks.flatMap((chunk) => chunk.tool_call_chunks ?? []);
    const merged = chunks.reduce((all, chunk) => all.concat(chunk));
    expect(merged.tool_call_chunks?.[0]?.args).toBe('{"city": "Paris"}{"city": "Paris"}');
    expect(collectToolCalls(merged, { toolCallChunks: fragments })?.map((entry) => entry.call)).toEqual([
      call("a", "w", '{"city": "Paris"}'),
    ]);
  });

  it("keeps calls of another type from the provider's list", () => {
    const custom = { id: "x", type: "custom", custom: { name: "sql", input: "SELECT 1" } };
    const message = fromNeutralMessage({
      role: "assistant",
      content: null,
      tool_calls: [custom, call("a", "w", "{}")],
    });
    expect(toNeutralMessage(message)).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [custom, call("a", "w", "{}")],
    });
  });
});

describe("fromNeutralMessages", () => {
  it("splits calls by core's decode: mappings run, anything else is invalid with an issue code", () => {
    const message = fromNeutralMessage({
      role: "assistant",
      content: null,
      tool_calls: [
        call("a", "w", '{"city":"Paris"}'),
        call("b", "w", ""),
        call("c", "w", "42"),
        call("d", "", "{}"),
      ],
    }) as AIMessage;
    expect(message.content).toBe("");
    expect(message.tool_calls).toEqual([
      { id: "a", name: "w", args: { city: "Paris" }, type: "tool_call" },
      { id: "b", name: "w", args: {}, type: "tool_call" },
    ]);
    expect(message.invalid_tool_calls).toEqual([
      { id: "c", name: "w", args: "42", error: "arguments_not_object", type: "invalid_tool_call" },
      { id: "d", name: "", args: "{}", error: "name_missing", type: "invalid_tool_call" },
    ]);
  });

  it("gives the same history back, calls byte for byte", () => {
    const history: ChatMessage[] = [
      { role: "system", content: "rules" },
      { role: "user", content: "weather?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [call("a", "w", '{"city": "Paris"}'), call("b", "w", "{oops"), call("c", "w", "")],
      },
      { role: "tool", tool_call_id: "a", content: "sunny" },
      { role: "assistant", content: "It is sunny.", reasoning_content: "…" },
    ];
    expect(toNeutralMessages(fromNeutralMessages(history))).toEqual(history);
  });

  it("passes entries that are not messages through", () => {
    expect(fromNeutralMessages(["not a message" as never, null as never])).toEqual(["not a message", null]);
  });
});
