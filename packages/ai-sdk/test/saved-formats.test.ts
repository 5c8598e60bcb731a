import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { coreRepairs, createRecordEngine } from "@toolcall/core";
import { createFormatRegistry } from "@toolcall/core/kit";
import { openaiFormats } from "@toolcall/openai";
import * as ai from "ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { aiSdkFormats, aiSdkModelMessagesFormat, aiSdkUiMessagesFormat } from "../src/formats.js";

// Saved AI SDK histories read by the record engine: detected beside OpenAI Chat (whose shapes they resemble), read
// with every call paired, repaired in their own shapes (inputs stay objects), accepted by the real SDK afterwards.
const folder = fileURLToPath(new URL("./__fixtures__/saved/", import.meta.url));
const load = (name: string) => JSON.parse(readFileSync(join(folder, name), "utf8"));
const uiChat = () => load("chat-store-ui-messages.json") as ai.UIMessage[];
const modelChat = () => load("response-model-messages.json") as { messages: ai.ModelMessage[] };
const registry = createFormatRegistry([...openaiFormats, ...aiSdkFormats]);
const engine = createRecordEngine({ repairs: coreRepairs });

async function sdkAcceptsUi(messages: unknown): Promise<void> {
  await ai.validateUIMessages({ messages });
  await ai.convertToModelMessages(messages as ai.UIMessage[]);
}
function sdkAcceptsModel(messages: readonly unknown[]): void {
  for (const message of messages) expect(ai.modelMessageSchema.safeParse(message).success).toBe(true);
}

describe("the fixtures are what the real SDK saves", () => {
  it("UI messages pass validateUIMessages and convertToModelMessages; model messages pass modelMessageSchema", async () => {
    await sdkAcceptsUi(uiChat());
    sdkAcceptsModel(modelChat().messages);
  });
});

describe("detection", () => {
  it("claims saved chats ahead of OpenAI Chat, and leaves plain text messages to it", () => {
    expect(registry.detect(uiChat(), "record")).toMatchObject({
      certainty: "certain",
      format: { id: "ai-sdk-ui-messages" },
    });
    expect(registry.detect(modelChat(), "record")).toMatchObject({
      certainty: "certain",
      format: { id: "ai-sdk-model-messages" },
    });
    expect(registry.detect(modelChat().messages, "record")?.format.id).toBe("ai-sdk-model-messages");
    expect(registry.detect([{ role: "user", content: "hi" }], "record")?.format.id).toBe("openai-chat");
    const openaiCall = [
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
      },
    ];
    expect(registry.detect(openaiCall, "record")?.format.id).toBe("openai-chat");
    // An AI SDK 4 chat (tool-invocation parts) is not read as a UI message list of 5 or 6.
    const v4 = [{ id: "a", role: "assistant", parts: [{ type: "tool-invocation", toolInvocation: {} }] }];
    expect(aiSdkUiMessagesFormat.matches(v4)).toBe(false);
  });
});

describe("UI messages (useChat)", () => {
  it("are read step by step with calls and results paired, placed by part", () => {
    const reading = aiSdkUiMessagesFormat.read(uiChat());
    const conversation = reading.conversations[0];
    const messages = conversation?.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "tool",
      "assistant",
      "tool",
      "assistant",
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    const calls = messages.flatMap((message) => (message.tool_calls ?? []) as Array<{ id: string }>);
    expect(messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id)).toEqual(
      calls.map((call) => call.id),
    );
    expect(conversation?.placeOf?.([1, "tool_calls", 1])).toBe("[1].parts[3]");
    expect(conversation?.placeOf?.([3])).toBe("[1].parts[3]");
  });

  it("read then written unchanged is the record itself; a repair keeps every other part and the SDK accepts it", async () => {
    const chat = uiChat();
    const reading = aiSdkUiMessagesFormat.read(chat);
    expect(reading.write([undefined])).toEqual({ ok: true, value: chat });
    expect(reading.write([[...(reading.conversations[0]?.messages ?? [])]]).ok && true).toBe(true);
    expect(
      (reading.write([[...(reading.conversations[0]?.messages ?? [])]]) as { value: unknown }).value,
    ).toBe(chat);
    const repaired = engine.repair(aiSdkUiMessagesFormat, chat);
    expect(repaired.changes.map((change) => [change.rule, change.place])).toEqual([
      ["arguments_raw_preserved", "[1]"],
    ]);
    const out = repaired.value as ai.UIMessage[];
    const part = out[1]?.parts[3] as Record<string, unknown>;
    expect(part.input).toEqual({ _raw_arguments: '{"city": "Tokyo"' });
    expect(part.rawInput).toBe('{"city": "Tokyo"');
    // Every other message is the same object, and so is every other part of the changed one.
    expect(out.filter((message, i) => message === chat[i]).length).toBe(3);
    expect(out[1]?.parts.filter((p, i) => p === chat[1]?.parts[i]).length).toBe(7);
    await sdkAcceptsUi(out);
    // What is left is what the written record holds: the model's text kept under the raw sentinel.
    expect(engine.check(aiSdkUiMessagesFormat, out).issues.map((i) => [i.code, i.severity, i.place])).toEqual(
      [["arguments_raw_sentinel", "warning", "[1].parts[3]"]],
    );
  });

  it("a call that never got a result, before the last message, ends as output-error and the SDK accepts it", async () => {
    const chat = uiChat();
    const lost = chat[3]?.parts[1] as Record<string, unknown>;
    lost.state = "input-available";
    delete lost.output;
    expect(
      engine
        .check(aiSdkUiMessagesFormat, [
          ...chat,
          { id: "u9", role: "user", parts: [{ type: "text", text: "and?" }] },
        ])
        .issues.map((i) => [i.code, i.place]),
    ).toContainEqual(["tool_result_missing", "[3].parts[1]"]);
    const repaired = engine.repair(aiSdkUiMessagesFormat, [
      ...chat,
      { id: "u9", role: "user", parts: [{ type: "text", text: "and?" }] },
    ]);
    const part = (repaired.value as ai.UIMessage[])[3]?.parts[1] as Record<string, unknown>;
    expect(part.state).toBe("output-error");
    expect(typeof part.errorText).toBe("string");
    await sdkAcceptsUi(repaired.value);
  });
});

describe("model messages (response.messages)", () => {
  it("are read with calls and results paired, placed by part, options kept out of the view", () => {
    const record = modelChat();
    const conversation = aiSdkModelMessagesFormat.read(record).conversations[0];
    const messages = conversation?.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(messages[4]).toMatchObject({ content: "ENOENT: no such file or directory, open README.md" });
    expect(conversation?.placeOf?.([2, "tool_calls", 1])).toBe("messages[2].content[2]");
    expect(conversation?.placeOf?.([4])).toBe("messages[3].content[1]");
  });

  it("a repair writes inputs as objects, keeps provider options, and the SDK accepts what it wrote", () => {
    const record = modelChat();
    const reading = aiSdkModelMessagesFormat.read(record);
    expect(
      (reading.write([[...(reading.conversations[0]?.messages ?? [])]]) as { value: unknown }).value,
    ).toBe(record);
    const repaired = engine.repair(aiSdkModelMessagesFormat, record);
    const out = repaired.value as { messages: ai.ModelMessage[] };
    expect((out.messages[4]?.content as Array<Record<string, unknown>> | undefined)?.[1]?.input).toEqual({
      _raw_arguments: '{"dir": "docs"',
    });
    expect(out.messages.filter((message, i) => message === record.messages[i]).length).toBe(6);
    sdkAcceptsModel(out.messages);
  });

  it("a lost result is synthesized as a tool-result part the SDK accepts, after its call", () => {
    const record = modelChat();
    const tool = record.messages[3] as { content: unknown[] };
    tool.content = tool.content.slice(0, 1);
    const repaired = engine.repair(aiSdkModelMessagesFormat, record);
    expect(repaired.changes.map((change) => change.rule)).toContain("result_synthesized");
    const out = (repaired.value as { messages: ai.ModelMessage[] }).messages;
    sdkAcceptsModel(out);
    const results = out.flatMap((message) =>
      message.role === "tool"
        ? message.content.map((part) => (part as { toolCallId: string }).toolCallId)
        : [],
    );
    expect(results).toContain("toolu_01B19r91rx91mr928946mr0");
  });
});

describe("properties", () => {
  const payloads = fc.oneof(
    fc.constantFrom("", "null", "{'dir': 'src'}", '{"dir": "src",}', '```json\n{"dir": "src"}\n```', "[1]"),
    fc.string(),
  );
  it("whatever a call's input text is: read then written unchanged is the record; a repair's record matches and reads back", () => {
    fc.assert(
      fc.property(payloads, (input) => {
        const record = modelChat();
        const content = record.messages[2]?.content as Array<Record<string, unknown>>;
        (content[1] as Record<string, unknown>).input = input;
        const reading = aiSdkModelMessagesFormat.read(record);
        expect(
          (reading.write([[...(reading.conversations[0]?.messages ?? [])]]) as { value: unknown }).value,
        ).toBe(record);
        const repaired = engine.repair(aiSdkModelMessagesFormat, record);
        if (repaired.value === undefined) return;
        expect(aiSdkModelMessagesFormat.matches(repaired.value)).toBe(true);
        const again = engine.repair(aiSdkModelMessagesFormat, repaired.value);
        expect(again.changes).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
