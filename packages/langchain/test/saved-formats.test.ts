import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { load } from "@langchain/core/load";
import {
  AIMessage,
  type BaseMessage,
  mapStoredMessagesToChatMessages,
  type StoredMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { coreRepairs, createRecordEngine } from "@toolcall/core";
import { createFormatRegistry } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { langchainFormats, langchainSerializedFormat, langchainStoredFormat } from "../src/formats.js";

// Saved LangChain histories read by the record engine, written back in LangChain's own shapes: the real
// @langchain/core loads every fixture before and after a repair, with the repaired calls' args as objects.
const folder = fileURLToPath(new URL("./__fixtures__/saved/", import.meta.url));
const load_ = (name: string) => JSON.parse(readFileSync(join(folder, name), "utf8"));
const jsStored = () => load_("chat-history-stored.json") as StoredMessage[];
const pyStored = () => load_("file-chat-history.json") as StoredMessage[];
const graphState = () => load_("langgraph-thread-state.json") as { messages: unknown[] };
const registry = createFormatRegistry(langchainFormats);
const engine = createRecordEngine({ repairs: coreRepairs });

async function revive(messages: readonly unknown[]): Promise<BaseMessage[]> {
  return Promise.all(messages.map((message) => load<BaseMessage>(JSON.stringify(message))));
}
const callsOf = (messages: readonly BaseMessage[]) =>
  messages.flatMap((message) => (AIMessage.isInstance(message) ? (message.tool_calls ?? []) : []));

describe("detection", () => {
  it("claims each form, certain, and leaves OpenAI messages and other typed items alone", () => {
    expect(registry.detect(jsStored(), "record")).toMatchObject({
      certainty: "certain",
      format: { id: "langchain-stored" },
    });
    expect(registry.detect(pyStored(), "record")?.format.id).toBe("langchain-stored");
    expect(registry.detect(graphState(), "record")).toMatchObject({
      certainty: "certain",
      format: { id: "langchain-serialized" },
    });
    expect(registry.detect({ messages: [{ role: "user", content: "hi" }] }, "record")).toBeUndefined();
    expect(langchainStoredFormat.matches([{ type: "message", role: "user", content: [] }])).toBe(false);
    expect(langchainSerializedFormat.matches([{ lc: 1, type: "secret", id: ["OPENAI_API_KEY"] }])).toBe(
      false,
    );
  });
});

describe("stored messages ({type, data})", () => {
  it("the fixtures load with the real mapStoredMessagesToChatMessages", () => {
    expect(mapStoredMessagesToChatMessages(jsStored()).map((m) => m.type)).toEqual([
      "system",
      "human",
      "ai",
      "tool",
      "tool",
      "ai",
    ]);
    expect(mapStoredMessagesToChatMessages(pyStored()).map((m) => m.type)).toEqual([
      "human",
      "ai",
      "tool",
      "ai",
      "human",
      "ai",
    ]);
  });

  it("are read with tool calls and invalid tool calls as calls, placed in the record", () => {
    const conversation = langchainStoredFormat.read(jsStored()).conversations[0];
    const assistant = conversation?.messages[2];
    expect(JSON.parse(JSON.stringify(assistant?.tool_calls))).toEqual([
      {
        id: "call_Zr4Tq8wNmB2xK5vH7jL9pC1s",
        type: "function",
        function: { name: "get_weather", arguments: '{"city":"Lyon","day":"friday"}' },
      },
      {
        id: "call_Qa7Yd3fGh6Jk9Lm2Np5Rs8Tv",
        type: "function",
        function: { name: "book_table", arguments: '{"city": "Lyon", "day": "friday", "people": 4' },
      },
    ]);
    expect(conversation?.placeOf?.([2, "tool_calls", 1])).toBe("[2].data.invalid_tool_calls[0]");
    expect(engine.check(langchainStoredFormat, jsStored()).issues.map((i) => [i.code, i.place])).toEqual([
      ["arguments_invalid_json", "[2].data.invalid_tool_calls[0]"],
    ]);
  });

  it("read then written unchanged is the record itself", () => {
    for (const record of [jsStored(), pyStored()]) {
      const reading = langchainStoredFormat.read(record);
      expect(reading.write([undefined])).toEqual({ ok: true, value: record });
      const same = reading.write([[...(reading.conversations[0]?.messages ?? [])]]);
      expect(same.ok && same.value).toBe(record);
    }
  });

  it("a repaired invalid call becomes a tool call with object args, OpenAI's raw call kept in step; the rest is the same", () => {
    const record = jsStored();
    const repaired = engine.repair(langchainStoredFormat, record);
    const out = repaired.value as StoredMessage[];
    expect(out.filter((message, i) => message === record[i]).length).toBe(5);
    const [loaded] = mapStoredMessagesToChatMessages([out[2] as StoredMessage]) as AIMessage[];
    expect(loaded?.invalid_tool_calls).toEqual([]);
    expect(loaded?.tool_calls?.[1]).toEqual({
      id: "call_Qa7Yd3fGh6Jk9Lm2Np5Rs8Tv",
      name: "book_table",
      args: { _raw_arguments: '{"city": "Lyon", "day": "friday", "people": 4' },
      type: "tool_call",
    });
    const raw = (loaded?.additional_kwargs.tool_calls ?? [])[1];
    expect(JSON.parse(raw?.function.arguments ?? "")).toEqual(loaded?.tool_calls?.[1]?.args);
    expect(loaded?.response_metadata).toEqual(mapStoredMessagesToChatMessages(record)[2]?.response_metadata);
  });

  it("Python's dicts: a call with no result gets one as a Python ToolMessage dict, which LangChain loads", () => {
    const record = pyStored();
    const repaired = engine.repair(langchainStoredFormat, record);
    expect(repaired.changes.map((change) => change.rule).sort()).toEqual([
      "arguments_raw_preserved",
      "result_synthesized",
    ]);
    const out = repaired.value as StoredMessage[];
    expect(out).toHaveLength(record.length + 1);
    expect(Object.keys(out[4]?.data ?? {})).toEqual(Object.keys(record[2]?.data ?? {}));
    const loaded = mapStoredMessagesToChatMessages(out);
    const result = loaded[4] as ToolMessage;
    expect(ToolMessage.isInstance(result)).toBe(true);
    expect([result.tool_call_id, result.name, result.status]).toEqual([
      "call_pW6sN3dF8gJ1kL4qR7tY0uX2",
      "get_issue",
      "error",
    ]);
    expect(repaired.remaining.filter((issue) => issue.severity === "error")).toEqual([]);
  });
});

describe("serialized messages (lc: 1 constructors)", () => {
  it("the fixture revives with the real load(); its calls are read and clean", async () => {
    const record = graphState();
    const revived = await revive(record.messages);
    expect(revived.map((message) => message.type)).toEqual(["human", "ai", "tool", "ai", "tool"]);
    expect(engine.check(langchainSerializedFormat, record).issues).toEqual([]);
    const reading = langchainSerializedFormat.read(record);
    const same = reading.write([[...(reading.conversations[0]?.messages ?? [])]]);
    expect(same.ok && same.value).toBe(record);
  });

  it("a repaired call writes args and the Anthropic tool_use block beside it as objects, and load() revives it", async () => {
    const record = graphState();
    const kwargs = (record.messages[1] as { kwargs: { tool_calls: Array<{ args: unknown }> } }).kwargs;
    // A Python dict where JSON was due (QwenLM/qwen-code #237), which LangChain keeps as an invalid call.
    kwargs.tool_calls[0] = { ...kwargs.tool_calls[0], args: "{'a': 23, 'b': 7}" };
    (kwargs as unknown as { invalid_tool_calls: unknown[] }).invalid_tool_calls = [];
    const moved = kwargs.tool_calls.splice(0, 1)[0] as Record<string, unknown>;
    (kwargs as unknown as { invalid_tool_calls: unknown[] }).invalid_tool_calls.push({
      ...moved,
      type: "invalid_tool_call",
      error: "Malformed args.",
    });
    const repaired = engine.repair(langchainSerializedFormat, record);
    expect(repaired.changes.map((change) => [change.rule, change.place])).toEqual([
      ["arguments_canonicalized", "messages[1]"],
    ]);
    const revived = await revive((repaired.value as { messages: unknown[] }).messages);
    expect(callsOf(revived)[0]?.args).toEqual({ a: 23, b: 7 });
    const blocks = (revived[1] as AIMessage).content as Array<Record<string, unknown>>;
    expect(blocks[1]?.input).toEqual({ a: 23, b: 7 });
    expect(engine.check(langchainSerializedFormat, repaired.value).issues).toEqual([]);
  });

  it("a result a rule adds is a ToolMessage constructor that load() revives", async () => {
    const record = graphState();
    record.messages.splice(4, 1);
    record.messages.push({
      lc: 1,
      type: "constructor",
      id: ["langchain_core", "messages", "HumanMessage"],
      kwargs: { content: "and?" },
    });
    const repaired = engine.repair(langchainSerializedFormat, record);
    const revived = await revive((repaired.value as { messages: unknown[] }).messages);
    const result = revived[4] as ToolMessage;
    expect(ToolMessage.isInstance(result)).toBe(true);
    expect([result.tool_call_id, result.name, result.status]).toEqual([
      "toolu_01Pq4Cw6Dy8Am0Lk3Jh5Ge7T",
      "add",
      "error",
    ]);
  });
});

describe("properties", () => {
  const payloads = fc.oneof(
    fc.constantFrom("", "null", "{'q': 1}", '{"q": 1,}', '```json\n{"q": 1}\n```', "[1]", '"{\\"q\\": 1}"'),
    fc.string(),
  );
  it("whatever an invalid call's args are: read then written unchanged is the record; a repair reads back, stable", () => {
    fc.assert(
      fc.property(payloads, (args) => {
        const record = jsStored();
        const data = record[2]?.data as unknown as { invalid_tool_calls: Array<Record<string, unknown>> };
        (data.invalid_tool_calls[0] as Record<string, unknown>).args = args;
        const reading = langchainStoredFormat.read(record);
        const same = reading.write([[...(reading.conversations[0]?.messages ?? [])]]);
        expect(same.ok && same.value).toBe(record);
        const repaired = engine.repair(langchainStoredFormat, record);
        if (repaired.value === undefined) return;
        expect(langchainStoredFormat.matches(repaired.value)).toBe(true);
        expect(mapStoredMessagesToChatMessages(repaired.value as StoredMessage[])).toHaveLength(6);
        expect(engine.repair(langchainStoredFormat, repaired.value).changes).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
