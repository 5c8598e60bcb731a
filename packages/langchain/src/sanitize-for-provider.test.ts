import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { validateHistory } from "@toolcall/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkDeepseek } from "../../core/test/fake-providers/deepseek-fake.js";
import { type FakeProvider, startChatFake } from "../../core/test/fake-providers/fake-server.js";
import { checkMistral } from "../../core/test/fake-providers/mistral-fake.js";
import { sanitizeMessages } from "./sanitize-messages.js";
import { toNeutralMessages } from "./to-neutral-messages.js";

// A LangChain history that Kimi and OpenAI answered, sent next to strict Mistral and DeepSeek fakes (loopback
// servers answering as the providers do) through the real ChatOpenAI: refused as it is, accepted once sanitized for
// that provider.

function history(): BaseMessage[] {
  return [
    new SystemMessage("You are a coding agent."),
    new HumanMessage("List the files, then read the first."),
    new AIMessage({
      content: "",
      tool_calls: [{ id: "functions.Bash:0", name: "Bash", args: { command: "ls" } }],
      additional_kwargs: { reasoning_content: "List first." },
    }),
    new ToolMessage({ content: "a.txt", tool_call_id: "functions.Bash:0" }),
    new AIMessage({
      content: "",
      tool_calls: [{ id: "call_PTLP8xhu3uwZk4l3nlnrrJha", name: "read_file", args: { path: "a.txt" } }],
    }),
    new ToolMessage({ content: "hello", tool_call_id: "call_PTLP8xhu3uwZk4l3nlnrrJha" }),
    new HumanMessage("Thanks. Now summarize."),
  ];
}

let mistral: FakeProvider;
let deepseek: FakeProvider;

beforeAll(async () => {
  mistral = await startChatFake(checkMistral);
  deepseek = await startChatFake(checkDeepseek);
});
afterAll(async () => {
  await Promise.all([mistral.close(), deepseek.close()]);
});

const model = (url: string) =>
  new ChatOpenAI({
    model: "devstral-medium-2512",
    apiKey: "test-key",
    maxRetries: 0,
    configuration: { baseURL: `${url}/v1` },
  });

describe("sanitizeMessages({ provider })", () => {
  it("makes a history Mistral refuses one it accepts: ids remapped in calls and results, a bridge turn", async () => {
    const raw = history();
    await expect(model(mistral.url).invoke(raw)).rejects.toMatchObject({ status: 400 });
    expect(mistral.exchanges.at(-1)?.response).toMatchObject({ code: "3280" });
    const { messages, changes } = sanitizeMessages(raw, { provider: "mistral" });
    expect(validateHistory(toNeutralMessages(messages), { provider: "mistral" })).toEqual([]);
    const ai = messages[2] as AIMessage;
    const id = ai.tool_calls?.[0]?.id;
    expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect((messages[3] as ToolMessage).tool_call_id).toBe(id);
    expect(changes.filter((c) => c.rule === "call_id_remapped").map((c) => c.before)).toContain(
      "functions.Bash:0",
    );
    expect(messages[6]).toBeInstanceOf(AIMessage);
    expect(messages[7]).toBe(raw[6]);
    await expect(model(mistral.url).invoke(messages)).resolves.toBeInstanceOf(AIMessage);
  });

  it("keeps reasoning for DeepSeek V4: a turn without it gets an empty one, the other keeps its own", async () => {
    const raw = history();
    const { messages, changes } = sanitizeMessages(raw, { provider: "deepseek-v4-thinking" });
    expect(changes.map((c) => c.rule)).toEqual(["reasoning_filled"]);
    expect((messages[2] as AIMessage).additional_kwargs.reasoning_content).toBe("List first.");
    expect((messages[4] as AIMessage).additional_kwargs.reasoning_content).toBe("");
    expect(messages[2]).toBe(raw[2]);
    // In OpenAI form (what a client that keeps reasoning_content sends), DeepSeek's rules accept it.
    expect(checkDeepseek({ messages: toNeutralMessages(raw) })).toMatchObject({ status: 400 });
    expect(checkDeepseek({ messages: toNeutralMessages(messages) })).toBeUndefined();
    // LangChain's ChatOpenAI leaves reasoning_content out when it converts a history, so DeepSeek still refuses
    // what it sends: reasoning has to go through a client that replays it.
    await expect(model(deepseek.url).invoke(messages)).rejects.toMatchObject({ status: 400 });
    const sent = deepseek.exchanges.at(-1)?.request as { messages: Array<Record<string, unknown>> };
    expect(sent.messages[2]).not.toHaveProperty("reasoning_content");
  });
});
