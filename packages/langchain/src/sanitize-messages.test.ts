import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { coreRepairs } from "@toolcall/core";
import { describe, expect, it } from "vitest";
import { sanitizeMessages } from "./sanitize-messages.js";
import { toNeutralMessages } from "./to-neutral-messages.js";
import { validateMessages } from "./validate-messages.js";

const call = (id: string, name: string, args: unknown) => ({
  id,
  type: "function",
  function: { name, arguments: args },
});

function fromProvider(calls: unknown[], fields: Record<string, unknown> = {}): AIMessage {
  return new AIMessage({ content: "", additional_kwargs: { tool_calls: calls as never }, ...fields });
}

describe("sanitizeMessages", () => {
  it("returns a history that needs nothing as the same array", () => {
    const history: BaseMessage[] = [
      new HumanMessage("weather?"),
      new AIMessage({ content: "", tool_calls: [{ id: "c1", name: "w", args: { city: "Paris" } }] }),
      new ToolMessage({ content: "sunny", tool_call_id: "c1" }),
      new AIMessage("It is sunny."),
    ];
    const result = sanitizeMessages(history);
    expect(result.messages).toBe(history);
    expect(result.changes).toEqual([]);
  });

  it("sends invalid calls with their results instead of dropping them and orphaning the results", () => {
    const assistant = fromProvider([call("a", "w", '{"city":"Paris"}'), call("b", "w", "{oops")], {
      id: "run-1",
      response_metadata: { model_name: "m" },
    });
    const history: BaseMessage[] = [
      new SystemMessage("rules"),
      new HumanMessage("weather?"),
      assistant,
      new ToolMessage({ content: "sunny", tool_call_id: "a", name: "w" }),
      new ToolMessage({ content: "Error: invalid", tool_call_id: "b", status: "error" }),
    ];
    const { messages, changes } = sanitizeMessages(history);
    expect(changes).toMatchObject([{ rule: "arguments_raw_preserved", messageIndex: 2, toolCallId: "b" }]);
    const repaired = messages[2] as AIMessage;
    expect(repaired).not.toBe(assistant);
    expect(repaired).toMatchObject({
      id: "run-1",
      response_metadata: { model_name: "m" },
      invalid_tool_calls: [],
    });
    // LangChain's OpenAI conversion sends tool_calls when there are any: both calls are there, as JSON objects.
    expect(repaired.tool_calls).toEqual([
      { id: "a", name: "w", args: { city: "Paris" }, type: "tool_call" },
      { id: "b", name: "w", args: { _raw_arguments: "{oops" }, type: "tool_call" },
    ]);
    expect(messages.slice(3)).toEqual(history.slice(3));
    expect(messages[3]).toBe(history[3]);
    expect(validateMessages(messages)).toMatchObject([
      { code: "arguments_raw_sentinel", severity: "warning" },
    ]);
  });

  it("replaces the provider's list so a turn with only invalid calls is not replayed raw", () => {
    const history = [new HumanMessage("go"), fromProvider([call("a", "w", "")])];
    const { messages, changes } = sanitizeMessages(history);
    expect(changes.map((change) => change.rule)).toEqual(["arguments_canonicalized", "result_synthesized"]);
    expect((messages[1] as AIMessage).additional_kwargs.tool_calls).toEqual([call("a", "w", "{}")]);
    expect(messages[2]).toBeInstanceOf(ToolMessage);
    expect(messages[2]).toMatchObject({
      tool_call_id: "a",
      content: "[no result was recorded for this tool call]",
    });
  });

  it("drops orphan results, renames a repeated id and its second result, removes empty turns", () => {
    const history: BaseMessage[] = [
      new HumanMessage("go"),
      new ToolMessage({ content: "stray", tool_call_id: "zz" }),
      fromProvider([call("a", "w", "{}"), call("a", "w", '{"n":2}')]),
      new ToolMessage({ content: "one", tool_call_id: "a" }),
      new ToolMessage({ content: "two", tool_call_id: "a" }),
      new AIMessage(""),
    ];
    const { messages, changes } = sanitizeMessages(history);
    expect(changes.map((change) => change.rule).sort()).toEqual(
      ["call_id_renamed", "call_id_renamed", "message_removed_empty", "result_dropped_orphan"].sort(),
    );
    expect(toNeutralMessages(messages)).toEqual([
      { role: "user", content: "go" },
      { role: "assistant", content: null, tool_calls: [call("a", "w", "{}"), call("a_2", "w", '{"n":2}')] },
      { role: "tool", tool_call_id: "a", content: "one" },
      { role: "tool", tool_call_id: "a_2", content: "two" },
    ]);
  });

  it("follows core's policies: drop a call with its results, or empty it with a note", () => {
    const history = [
      new HumanMessage("go"),
      fromProvider([call("a", "w", "{oops"), call("b", "w", "{}")]),
      new ToolMessage({ content: "failed", tool_call_id: "a" }),
      new ToolMessage({ content: "ok", tool_call_id: "b" }),
    ];
    const dropped = sanitizeMessages(history, { policy: "drop" });
    expect(toNeutralMessages(dropped.messages)).toEqual([
      { role: "user", content: "go" },
      { role: "assistant", content: null, tool_calls: [call("b", "w", "{}")] },
      { role: "tool", tool_call_id: "b", content: "ok" },
    ]);
    const emptied = sanitizeMessages(history, { policy: "empty" });
    expect((emptied.messages[1] as AIMessage).tool_calls?.[0]?.args).toEqual({});
    expect(emptied.messages[2]?.content).toBe(
      "[the arguments of this tool call were malformed and replaced with {}; original: {oops]\nfailed",
    );
  });

  it("uses the repairs it is given and is idempotent", () => {
    const history = [new HumanMessage("go"), fromProvider([call("a", "w", "{'city': 'Paris'}")])];
    const { messages } = sanitizeMessages(history, { repairs: coreRepairs });
    expect((messages[1] as AIMessage).tool_calls?.[0]?.args).toEqual({ city: "Paris" });
    const again = sanitizeMessages(messages, { repairs: coreRepairs });
    expect(again.messages).toBe(messages);
    expect(again.changes).toEqual([]);
    expect(history[1]).toMatchObject({ invalid_tool_calls: [{ id: "a" }] });
  });
});
