import { AIMessage, AIMessageChunk, HumanMessage } from "@langchain/core/messages";
import { coreRepairs } from "@toolcall/core";
import { TOOLCALL_REPORT_KEY } from "@toolcall/core/kit";
import { describe, expect, it } from "vitest";
import { finishReasonOf } from "./finish-reason.js";
import { repairToolCalls } from "./repair-tool-calls.js";

const call = (id: string, name: string, args: unknown) => ({
  id,
  type: "function",
  function: { name, arguments: args },
});

/** A whole message as ChatOpenAI builds it from a chat.completion. */
function fromProvider(calls: unknown[], metadata: Record<string, unknown> = {}): AIMessage {
  return new AIMessage({
    content: "",
    additional_kwargs: { tool_calls: calls as never },
    response_metadata: metadata,
  });
}

describe("repairToolCalls", () => {
  it("returns a message that needs nothing as itself", () => {
    const handBuilt = new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "w", args: { a: 1 } }] });
    expect(repairToolCalls(handBuilt)).toMatchObject({ message: handBuilt, changed: false });
    const provided = fromProvider([call("c1", "w", '{"a": 1}')]);
    const result = repairToolCalls(provided);
    expect(result.message).toBe(provided);
    expect(result.calls).toMatchObject([{ status: "object", outcome: "kept" }]);
    expect(repairToolCalls(new HumanMessage("hi"))).toMatchObject({ calls: [], changed: false });
  });

  it("recovers what decodes to a mapping and keeps the rest out of tool_calls, with issue codes", () => {
    const message = fromProvider([
      call("a", "w", ""),
      call("b", "w", "null"),
      call("c", "w", '"{\\"x\\":1}"'),
      call("d", "w", '```json\n{"x":2}\n```'),
      call("e", "w", "[1, 2]"),
      call("f", "w", "{oops"),
    ]);
    const { message: repaired, calls, changed } = repairToolCalls(message, { repairs: coreRepairs });
    expect(changed).toBe(true);
    expect((repaired as AIMessage).tool_calls?.map(({ id, args }) => ({ id, args }))).toEqual([
      { id: "a", args: {} },
      { id: "b", args: {} },
      { id: "c", args: { x: 1 } },
      { id: "d", args: { x: 2 } },
    ]);
    expect(
      (repaired as AIMessage).invalid_tool_calls?.map(({ id, args, error }) => ({ id, args, error })),
    ).toEqual([
      { id: "e", args: "[1, 2]", error: "arguments_not_object" },
      { id: "f", args: "{oops", error: "arguments_invalid_json" },
    ]);
    expect(calls.map((decision) => [decision.status, decision.outcome, decision.repairs])).toEqual([
      ["empty", "recovered", []],
      ["null_literal", "recovered", []],
      ["double_encoded", "recovered", []],
      ["repaired", "recovered", ["markdown-fence"]],
      ["non_object", "invalid", []],
      ["invalid", "invalid", []],
    ]);
    // The provider's list: canonical text, and the model's own text for calls that cannot run (a fresh answer
    // never turns them into text that parses; sanitizing the history is what makes a replay acceptable).
    expect((repaired as AIMessage).additional_kwargs.tool_calls?.map((c) => c.function.arguments)).toEqual([
      "{}",
      "{}",
      '{"x":1}',
      '{"x":2}',
      "[1, 2]",
      "{oops",
    ]);
    expect(
      (repaired.response_metadata as Record<string, { calls?: unknown[] }>)[TOOLCALL_REPORT_KEY]?.calls
        ?.length,
    ).toBeGreaterThan(0);
  });

  it("reads a whole message's falsy JSON as LangChain does, and decides it from the provider's text", () => {
    // LangChain turns `0` into `args: {}` (`parsed || {}`); the provider's text says what the model sent.
    const { message } = repairToolCalls(fromProvider([call("a", "w", "0"), call("b", "w", "{}")]));
    expect((message as AIMessage).tool_calls?.map((c) => c.id)).toEqual(["b"]);
    expect((message as AIMessage).invalid_tool_calls).toMatchObject([
      { id: "a", args: "0", error: "arguments_not_object" },
    ]);
  });

  it("is idempotent: a repaired message is left as it is", () => {
    const { message } = repairToolCalls(fromProvider([call("a", "w", ""), call("b", "w", "{oops")]));
    const again = repairToolCalls(message);
    expect(again.message).toBe(message);
    expect(again.changed).toBe(false);
  });

  it("never repairs text cut off by a length stop, read from the message or given", () => {
    const cut = [call("a", "w", '{"city": "Paris",}')];
    const stopped = repairToolCalls(fromProvider(cut, { finish_reason: "length" }), { repairs: coreRepairs });
    expect(stopped.calls[0]).toMatchObject({
      status: "truncated",
      issue: "arguments_truncated",
      outcome: "invalid",
    });
    const repaired = repairToolCalls(fromProvider(cut), { repairs: coreRepairs });
    expect(repaired.calls[0]).toMatchObject({ status: "repaired", repairs: ["trailing-commas"] });
    const told = repairToolCalls(fromProvider(cut), { repairs: coreRepairs, finishReason: "length" });
    expect(told.calls[0]?.status).toBe("truncated");
  });

  it("keeps a call without a name out of tool_calls", () => {
    const { message } = repairToolCalls(fromProvider([call("a", "", "{}")]));
    expect((message as AIMessage).invalid_tool_calls).toMatchObject([{ id: "a", error: "name_missing" }]);
  });

  it("turns a merged chunk into a whole AIMessage", () => {
    const chunk = new AIMessageChunk({
      content: "checking",
      id: "run-1",
      tool_call_chunks: [{ index: 0, id: "a", name: "w", args: '{"x":1}', type: "tool_call_chunk" }],
    });
    const { message, changed } = repairToolCalls(chunk);
    expect(changed).toBe(false);
    expect(message).toBeInstanceOf(AIMessage);
    expect(message).toMatchObject({
      content: "checking",
      id: "run-1",
      tool_calls: [{ id: "a", args: { x: 1 } }],
    });
  });

  it("keeps every digit of a big integer in the text a recovered call stores", () => {
    const { message } = repairToolCalls(fromProvider([call("a", "w", '"{\\"n\\":12345678901234567890}"')]));
    expect((message as AIMessage).additional_kwargs.tool_calls?.[0]?.function.arguments).toBe(
      '{"n":12345678901234567890}',
    );
  });
});

describe("finishReasonOf", () => {
  it("reads each provider's word for a token-limit stop as length", () => {
    const of = (metadata: Record<string, unknown>) =>
      finishReasonOf(new AIMessage({ content: "", response_metadata: metadata }));
    expect(of({ finish_reason: "length" })).toBe("length");
    expect(of({ stop_reason: "max_tokens" })).toBe("length");
    expect(of({ finishReason: "MAX_TOKENS" })).toBe("length");
    expect(of({ done_reason: "length" })).toBe("length");
    expect(of({ finish_reason: "tool_calls" })).toBe("tool_calls");
    expect(of({})).toBeUndefined();
  });
});
