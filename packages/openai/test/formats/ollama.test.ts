import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRecordEngine } from "@toolcall/core";
import { createFormatRegistry } from "@toolcall/core/kit";
import { describe, expect, it } from "vitest";
import { ollamaChatFormat, openaiChatFormat, openaiFormats } from "../../src/index.js";

const fixtures = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const text = readFileSync(join(fixtures, "ollama-chat-tools.json"), "utf8");
const fresh = () => JSON.parse(text) as { messages: Array<Record<string, unknown>> };
const engine = createRecordEngine();

describe("Ollama native chat (/api/chat): arguments stay objects", () => {
  it("is detected ahead of OpenAI Chat when a call's arguments are an object", () => {
    const registry = createFormatRegistry(openaiFormats);
    expect(openaiChatFormat.matches(fresh())).toBe(true);
    expect(registry.detect(fresh(), "record")).toMatchObject({
      certainty: "certain",
      format: { id: "ollama-chat" },
    });
    const chat = { messages: [{ role: "user", content: "hi" }] };
    expect(registry.detect(chat, "record")?.format.id).toBe("openai-chat");
  });

  it("reads calls as JSON text, pairs each result by position and tool_name; clean, and repair changes nothing", () => {
    const record = fresh();
    const messages = ollamaChatFormat.read(record).conversations[0]?.messages ?? [];
    const calls = (messages[1]?.tool_calls ?? []) as Array<{ function: { arguments: unknown } }>;
    expect(calls.map((call) => call.function.arguments)).toEqual([
      '{"format":"celsius","location":"Paris, FR"}',
      '{"format":"celsius","location":"Toronto, CA"}',
    ]);
    expect(messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id)).toEqual([
      "call@1",
      "call@1.1",
    ]);
    expect(engine.check(ollamaChatFormat, record).issues).toEqual([]);
    const repaired = engine.repair(ollamaChatFormat, record);
    expect(repaired.changes).toEqual([]);
    expect(repaired.value).toBeUndefined();
    // Read then write with no change: the same record (so the same bytes).
    const reading = ollamaChatFormat.read(record);
    expect(reading.write([[...(reading.conversations[0]?.messages ?? [])]])).toEqual({
      ok: true,
      value: record,
    });
  });

  it("a repair writes arguments back as an object; every message it did not touch is the same object", () => {
    const record = fresh();
    const calls = record.messages[1]?.tool_calls as Array<{ function: { arguments: unknown } }>;
    (calls[1] as { function: { arguments: unknown } }).function.arguments =
      "{'format': 'celsius', 'location': 'Toronto, CA'}";
    const repaired = engine.repair(ollamaChatFormat, record);
    expect(repaired.changes.map((change) => change.rule)).toEqual(["arguments_canonicalized"]);
    const written = repaired.value as { messages: Array<Record<string, unknown>>; stream: boolean };
    const writtenCalls = written.messages[1]?.tool_calls as Array<{ function: { arguments: unknown } }>;
    expect(writtenCalls[1]?.function.arguments).toEqual({ format: "celsius", location: "Toronto, CA" });
    expect(writtenCalls[0]).toBe(calls[0]);
    expect(written.messages[2]).toBe(record.messages[2]);
    expect(written.stream).toBe(false);
    expect(engine.check(ollamaChatFormat, written).issues).toEqual([]);
  });

  it("a result synthesized for a call left without one names its tool, as Ollama writes results", () => {
    const record = fresh();
    record.messages.splice(3, 1);
    record.messages.push({ role: "user", content: "thanks" });
    const repaired = createRecordEngine({ pending: "synthesize" }).repair(ollamaChatFormat, record);
    expect(repaired.changes.map((change) => change.rule)).toEqual(["result_synthesized"]);
    const written = repaired.value as { messages: Array<Record<string, unknown>> };
    expect(written.messages[3]).toEqual({
      role: "tool",
      content: "[no result was recorded for this tool call]",
      tool_name: "get_current_weather",
    });
  });
});

describe("Ollama native chat: ids a rule renames", () => {
  it("a duplicate id renamed by the repair is written on the call, its arguments left as they were", () => {
    const record = {
      messages: [
        { role: "user", content: "x" },
        {
          role: "assistant",
          content: "",
          tool_calls: [
            { id: "t1", function: { name: "f", arguments: { a: 1 } } },
            { id: "t1", function: { name: "g", arguments: { b: 2 } } },
          ],
        },
        { role: "tool", tool_call_id: "t1", content: "one" },
        { role: "tool", tool_call_id: "t1", content: "two" },
      ],
    };
    const repaired = createRecordEngine().repair(ollamaChatFormat, record);
    expect(repaired.changes.map((change) => change.rule)).toContain("call_id_renamed");
    const written = repaired.value as {
      messages: Array<{ tool_calls?: Array<{ id: string; function: unknown }> }>;
    };
    const ids = written.messages[1]?.tool_calls?.map((call) => call.id) ?? [];
    expect(new Set(ids).size).toBe(2);
    expect(written.messages[1]?.tool_calls?.[1]?.function).toEqual({ name: "g", arguments: { b: 2 } });
    expect(repaired.remaining.filter((issue) => issue.severity === "error")).toEqual([]);
  });
});
