import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { coreRepairs } from "@toolcall/core";
import {
  convertToModelMessages,
  generateText,
  jsonSchema,
  type ModelMessage,
  stepCountIs,
  streamText,
  tool,
  type UIMessage,
  wrapLanguageModel,
} from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sanitizeModelMessages, sanitizeUIMessages, toolcallMiddleware } from "../src/index.js";
import { type LoopbackServer, startLoopbackServer, TOOL_SCHEMA } from "./loopback-server.js";

// A conversation started on DashScope (the recorded qwen3-max call, id `call_962bfd2ab8f54b89a1161356`) continues on
// Mistral, whose API takes only 9-character ids and no user message right after a tool result: refused raw,
// accepted with the `mistral` provider profile (core's), through the middleware or the sanitizers.

let dashscope: LoopbackServer;
let mistral: LoopbackServer;
beforeAll(async () => {
  dashscope = await startLoopbackServer();
  mistral = await startLoopbackServer({ strict: "mistral" });
});
afterAll(async () => {
  await Promise.all([dashscope.close(), mistral.close()]);
});

const modelOn = (server: LoopbackServer, name: string) =>
  createOpenAICompatible({ name: "loopback", baseURL: server.baseURL, apiKey: "k" }).chatModel(name);
const tools = {
  weather: tool({
    description: "The weather in a city",
    inputSchema: jsonSchema<{ location: string }>(TOOL_SCHEMA as never),
    execute: async () => "sunny",
  }),
};

/** One step on DashScope: the call and its result, then the user asks again (the turn ended at the tool result). */
async function savedOnDashScope(): Promise<ModelMessage[]> {
  const first = await generateText({
    model: modelOn(dashscope, "clean"),
    prompt: "Weather in San Francisco?",
    tools,
    stopWhen: stepCountIs(1),
  });
  return [
    { role: "user", content: "Weather in San Francisco?" },
    ...first.response.messages,
    { role: "user", content: "Thanks. Tomorrow?" },
  ];
}

describe("a history moved from DashScope to Mistral", () => {
  it("raw, Mistral refuses the DashScope call id", async () => {
    const history = await savedOnDashScope();
    await expect(
      generateText({ model: modelOn(mistral, "text"), messages: history, tools }),
    ).rejects.toMatchObject({
      statusCode: 400,
      responseBody: JSON.stringify({
        object: "error",
        message:
          "Tool call id was call_962bfd2ab8f54b89a1161356 but must be a-z, A-Z, 0-9, with a length of 9.",
        type: "invalid_function_call",
        param: null,
        code: "3280",
      }),
    });
  });

  it("the middleware with provider mistral: ids remapped in call and result, a bridge turn before the user; accepted", async () => {
    const history = await savedOnDashScope();
    const model = wrapLanguageModel({
      model: modelOn(mistral, "text"),
      middleware: toolcallMiddleware({ repairs: coreRepairs, provider: "mistral" }),
    });
    const result = await generateText({ model, messages: history, tools });
    expect(result.text).toBe("Accepted.");
    const sent = mistral.requests.at(-1)?.body.messages ?? [];
    const callId = sent.find((message) => message.role === "assistant")?.tool_calls?.[0]?.id;
    expect(callId).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(sent.find((message) => message.role === "tool")?.tool_call_id).toBe(callId);
    expect(sent.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
    const streamed = streamText({ model, messages: history, tools });
    expect(await streamed.text).toBe("Accepted.");
  });

  it("sanitizeModelMessages and sanitizeUIMessages with provider mistral give histories Mistral accepts", async () => {
    const history = await savedOnDashScope();
    const { messages } = sanitizeModelMessages(history, { provider: "mistral" });
    expect((await generateText({ model: modelOn(mistral, "text"), messages, tools })).text).toBe("Accepted.");

    const ui: UIMessage[] = [
      { id: "u1", role: "user", parts: [{ type: "text", text: "Weather in San Francisco?" }] },
      {
        id: "a1",
        role: "assistant",
        parts: [
          { type: "step-start" },
          {
            type: "tool-weather",
            toolCallId: "call_962bfd2ab8f54b89a1161356",
            state: "output-available",
            input: { location: "San Francisco" },
            output: "sunny",
          },
        ],
      },
      { id: "u2", role: "user", parts: [{ type: "text", text: "Thanks. Tomorrow?" }] },
    ];
    await expect(
      generateText({ model: modelOn(mistral, "text"), messages: await convertToModelMessages(ui), tools }),
    ).rejects.toMatchObject({ statusCode: 400 });
    const sanitized = sanitizeUIMessages(ui, { provider: "mistral" });
    expect(sanitized.messages.map((message) => message.id)).toEqual(["u1", "a1", "a1-toolcall-1", "u2"]);
    const result = await generateText({
      model: modelOn(mistral, "text"),
      messages: await convertToModelMessages(sanitized.messages),
      tools,
    });
    expect(result.text).toBe("Accepted.");
  });
});
