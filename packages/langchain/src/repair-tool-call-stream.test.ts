import {
  AIMessage,
  AIMessageChunk,
  type BaseMessage,
  HumanMessageChunk,
  type ToolCallChunk,
} from "@langchain/core/messages";
import { concat } from "@langchain/core/utils/stream";
import { coreRepairs } from "@toolcall/core";
import { describe, expect, it } from "vitest";
import { repairToolCallStream } from "./repair-tool-call-stream.js";
import { repairToolCalls } from "./repair-tool-calls.js";
import { RepairedAIMessageChunk } from "./repaired-ai-message-chunk.js";

async function* from(messages: BaseMessage[]): AsyncGenerator<BaseMessage> {
  yield* messages;
}

async function collect(messages: BaseMessage[]): Promise<BaseMessage[]> {
  const out: BaseMessage[] = [];
  for await (const message of repairToolCallStream(from(messages))) out.push(message);
  return out;
}

const fragment = (fields: Partial<ToolCallChunk>) =>
  new AIMessageChunk({ content: "", tool_call_chunks: [{ type: "tool_call_chunk", ...fields }] });

describe("repairToolCallStream", () => {
  it("passes text through and yields nothing more when there are no calls", async () => {
    const out = await collect([new AIMessageChunk("Hel"), new AIMessageChunk("lo")]);
    expect(out.map((chunk) => chunk.content)).toEqual(["Hel", "lo"]);
  });

  it("passes messages that are not AI chunks through", async () => {
    const human = new HumanMessageChunk("hi");
    expect(await collect([human])).toEqual([human]);
  });

  it("decides a final frame repeating the complete arguments once (R9), where LangChain appends it", async () => {
    const chunks = [
      fragment({ index: 0, id: "a", name: "w", args: '{"city":' }),
      fragment({ index: 0, args: ' "Paris"}' }),
      fragment({ index: 0, args: '{"city": "Paris"}' }),
    ];
    const raw = chunks.reduce((all, chunk) => all.concat(chunk));
    expect(raw.invalid_tool_calls).toHaveLength(1);
    const out = await collect(chunks);
    const full = out.reduce((all, chunk) =>
      concat(all as AIMessageChunk, chunk as AIMessageChunk),
    ) as AIMessageChunk;
    expect(full.tool_calls).toEqual([{ id: "a", name: "w", args: { city: "Paris" }, type: "tool_call" }]);
    expect(full.invalid_tool_calls).toEqual([]);
  });

  it("repairs a whole message from a model that does not stream", async () => {
    const whole = new AIMessage({
      content: "ok",
      additional_kwargs: {
        tool_calls: [{ id: "a", type: "function", function: { name: "w", arguments: "" } }],
      },
    });
    const out = await collect([whole]);
    const full = out.reduce((all, chunk) =>
      concat(all as AIMessageChunk, chunk as AIMessageChunk),
    ) as AIMessageChunk;
    expect(full.content).toBe("ok");
    expect(full.tool_calls).toEqual([{ id: "a", name: "w", args: {}, type: "tool_call" }]);
  });

  it("gives chunks whose concat carries what core decided, as the whole message does", async () => {
    const chunks = [
      new AIMessageChunk("Looking"),
      fragment({ index: 0, id: "a", name: "w", args: '{"city": "Par' }),
      fragment({ index: 1, id: "b", name: "t", args: '{"tz": "CET"}' }),
      new AIMessageChunk({ content: "", response_metadata: { finish_reason: "length" } }),
    ];
    const out = (await collect(chunks)) as AIMessageChunk[];
    expect(out.every((chunk) => chunk instanceof RepairedAIMessageChunk)).toBe(true);
    const full = out.reduce((all, chunk) => all.concat(chunk));
    const whole = repairToolCalls(chunks.reduce((all, chunk) => all.concat(chunk))).message as AIMessage;
    expect(full.tool_calls).toEqual(whole.tool_calls);
    expect(full.invalid_tool_calls).toEqual(whole.invalid_tool_calls);
    expect(full.invalid_tool_calls).toMatchObject([{ id: "a", error: "arguments_truncated" }]);
    expect(full.additional_kwargs.tool_calls?.map((call) => call.function.arguments)).toEqual(
      whole.additional_kwargs.tool_calls?.map((call) => call.function.arguments),
    );
    // The merged stream, repaired again, is left as it is.
    expect(repairToolCalls(full).changed).toBe(false);
  });
});

describe("repairToolCallStream: where the stream's finish reason is", () => {
  const repairs = coreRepairs;
  /** Decides a stream of one call with a trailing comma, ended by `last`; the merged result's lists. */
  async function decide(last: AIMessageChunk | undefined) {
    const chunks = [fragment({ index: 0, id: "a", name: "w", args: '{"city": "Paris",}' })];
    if (last !== undefined) chunks.push(last);
    let merged: BaseMessage | undefined;
    for await (const chunk of repairToolCallStream(from(chunks), { repairs }))
      merged = merged === undefined ? chunk : concat(merged as AIMessageChunk, chunk as AIMessageChunk);
    return merged as AIMessageChunk;
  }

  it("reads it from response_metadata (ChatOpenAI) and repairs", async () => {
    const out = await decide(
      new AIMessageChunk({ content: "", response_metadata: { finish_reason: "tool_calls" } }),
    );
    expect(out.tool_calls).toMatchObject([{ name: "w", args: { city: "Paris" } }]);
  });

  it("reads it from additional_kwargs, where a streamed ChatAnthropic message carries it, and repairs", async () => {
    // What @langchain/anthropic yields for the message_delta event: its delta's fields as additional_kwargs.
    const out = await decide(
      new AIMessageChunk({
        content: "",
        additional_kwargs: { stop_reason: "tool_use", stop_sequence: null },
      }),
    );
    expect(out.tool_calls).toMatchObject([{ name: "w", args: { city: "Paris" } }]);
  });

  it("reads a stream without one as cut: the broken call is truncated, not repaired", async () => {
    const out = await decide(undefined);
    expect(out.tool_calls).toEqual([]);
    expect(out.invalid_tool_calls).toMatchObject([{ name: "w", error: "arguments_truncated" }]);
  });
});
