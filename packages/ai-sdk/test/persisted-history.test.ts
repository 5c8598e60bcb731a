import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { coreRepairs } from "@toolcall/core";
import type { ModelMessage, UIMessage } from "ai";
import * as ai from "ai";
import * as first from "ai-6.0.0";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sanitizeModelMessages, sanitizeUIMessages, toolcallMiddleware } from "../src/index.js";
import {
  ARGUMENTS_ERROR,
  dashScopeError,
  type LoopbackServer,
  startLoopbackServer,
  TOOL_SCHEMA,
} from "./loopback-server.js";

// Histories a chat app saved, made by the real SDK against the loopback DashScope (what `useChat` persists through
// `toUIMessageStream({ originalMessages, onFinish })`, what `response.messages` holds), then replayed: raw, the
// provider or the SDK refuses them; sanitized, they are accepted, and the model still sees what it did.

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer();
});
afterAll(async () => {
  await server.close();
});

const provider = () =>
  createOpenAICompatible({ name: "dashscope", baseURL: server.baseURL, apiKey: "test-key" });

const weather = (sdk: typeof ai, withExecute = true) => {
  const inputSchema = sdk.jsonSchema<{ location: string }>(TOOL_SCHEMA as never);
  const description = "The weather in a city";
  // Without execute, a client-side tool: the call waits for the browser to answer it.
  return withExecute
    ? sdk.tool({ description, inputSchema, execute: async () => "sunny" })
    : sdk.tool({ description, inputSchema });
};

const user = (id: string, text: string): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });

/** One chat turn as a route handler runs it: UI messages in, the saved UI messages out. */
async function chatTurn(
  messages: UIMessage[],
  options: { model: string; withExecute?: boolean; abortOn?: string },
): Promise<{ saved: UIMessage[]; error: unknown; statuses: number[] }> {
  const from = server.requests.length;
  const controller = new AbortController();
  let saved: UIMessage[] = [];
  let error: unknown;
  const result = ai.streamText({
    model: provider().chatModel(options.model),
    messages: await ai.convertToModelMessages(messages),
    tools: { weather: weather(ai, options.withExecute ?? true) },
    stopWhen: ai.stepCountIs(3),
    abortSignal: controller.signal,
    onError: ({ error: failure }) => {
      error = failure;
    },
  });
  const stream = result.toUIMessageStream({
    originalMessages: messages,
    onFinish: ({ messages: all }) => {
      saved = all;
    },
  });
  for await (const chunk of stream) if (chunk.type === options.abortOn) controller.abort();
  return { saved, error, statuses: server.requests.slice(from).map((request) => request.status) };
}

const lastRequestMessages = () => server.requests.at(-1)?.body.messages ?? [];

describe("a saved useChat history (UIMessages)", () => {
  it("a call the SDK could not parse is saved as rawInput and poisons every later turn; sanitized, it replays", async () => {
    const turn1 = await chatTurn([user("u1", "Weather in San Francisco?")], { model: "python" });
    expect(turn1.statuses).toEqual([200, 200]);
    const part = turn1.saved[1]?.parts.find((p) => p.type === "tool-weather");
    expect(part).toMatchObject({
      state: "output-error",
      input: undefined,
      rawInput: "{'location': 'San Francisco'}",
    });

    const next = [...turn1.saved, user("u2", "And tomorrow?")];
    const raw = await chatTurn(next, { model: "text" });
    expect(raw.statuses).toEqual([400]);
    expect(server.requests.at(-1)?.error).toBe(ARGUMENTS_ERROR);
    expect(raw.error).toMatchObject({ statusCode: 400, responseBody: dashScopeError(ARGUMENTS_ERROR) });

    const { messages, changes } = sanitizeUIMessages(next, { repairs: coreRepairs });
    expect(await ai.validateUIMessages({ messages })).toEqual(messages);
    expect(changes.map((change) => change.rule)).toEqual(["arguments_canonicalized"]);
    const sanitized = await chatTurn(messages, { model: "text" });
    expect(sanitized.statuses).toEqual([200]);
    const call = lastRequestMessages().find((message) => message.role === "assistant")?.tool_calls?.[0];
    expect(call?.function?.arguments).toBe('{"location":"San Francisco"}');
    // Only the message that needed it changed.
    expect(messages[0]).toBe(next[0]);
    expect(messages[2]).toBe(next[2]);
  });

  it("a client-side tool never answered: the SDK refuses the next turn; sanitized, the call ends as an error", async () => {
    const turn1 = await chatTurn([user("u1", "Weather in San Francisco?")], {
      model: "clean",
      withExecute: false,
    });
    const part = turn1.saved[1]?.parts.find((p) => p.type === "tool-weather");
    expect(part).toMatchObject({ state: "input-available", input: { location: "San Francisco" } });
    // Still waiting at the end of the chat: left for the client to answer.
    expect(sanitizeUIMessages(turn1.saved).messages).toBe(turn1.saved);

    const next = [...turn1.saved, user("u2", "Never mind. Hello?")];
    const before = server.requests.length;
    const raw = await chatTurn(next, { model: "text" });
    expect(raw.error).toBeInstanceOf(ai.MissingToolResultsError);
    expect(server.requests.length).toBe(before);

    const { messages } = sanitizeUIMessages(next);
    expect(messages[1]?.parts.find((p) => p.type === "tool-weather")).toMatchObject({
      state: "output-error",
      input: { location: "San Francisco" },
      errorText: "[no result was recorded for this tool call]",
    });
    const sanitized = await chatTurn(messages, { model: "text" });
    expect(sanitized.statuses).toEqual([200]);
    expect(lastRequestMessages().find((message) => message.role === "tool")?.content).toBe(
      "[no result was recorded for this tool call]",
    );
  });

  it("a stream stopped mid-call leaves a part input-streaming: sanitized, the cut call is kept as it was, never completed", async () => {
    const turn1 = await chatTurn([user("u1", "Weather in San Francisco?")], {
      model: "stalled",
      abortOn: "tool-input-delta",
    });
    const part = turn1.saved[1]?.parts.find((p) => p.type === "tool-weather") as {
      state: string;
      rawInput?: string;
    };
    expect(part.state).toBe("input-streaming");
    const cut = part.rawInput as string;
    expect(cut.startsWith('{"location": "San Franc')).toBe(true);

    const next = [...turn1.saved, user("u2", "Try again?")];
    // Raw, the SDK leaves the cut call out of what the model sees: accepted, but the call is gone.
    const raw = await chatTurn(next, { model: "text" });
    expect(raw.statuses).toEqual([200]);
    expect(lastRequestMessages().some((message) => message.role === "assistant")).toBe(false);

    const { messages } = sanitizeUIMessages(next, { repairs: coreRepairs });
    const sanitized = await chatTurn(messages, { model: "text" });
    expect(sanitized.statuses).toEqual([200]);
    const replayed = lastRequestMessages();
    expect(
      replayed.find((message) => message.role === "assistant")?.tool_calls?.[0]?.function?.arguments,
    ).toBe(JSON.stringify({ _raw_arguments: cut }));
    expect(replayed.find((message) => message.role === "tool")?.content).toBe(
      "[no result was recorded for this tool call]",
    );
  });
});

describe("saved ModelMessages", () => {
  it("ai 6.0.0's response.messages keep an unparsed call as text: refused on replay; sanitized or through the middleware, accepted", async () => {
    const first600 = first as unknown as typeof ai;
    const result = await first600.generateText({
      model: provider().chatModel("python"),
      prompt: "Weather in San Francisco?",
      tools: { weather: weather(first600) },
    });
    const saved: ModelMessage[] = [
      { role: "user", content: "Weather in San Francisco?" },
      ...result.response.messages,
    ];
    const call = ((saved[1]?.content ?? []) as Array<{ type: string; input?: unknown }>).find(
      (p) => p.type === "tool-call",
    );
    expect(call?.input).toBe("{'location': 'San Francisco'}");

    const next: ModelMessage[] = [...saved, { role: "user", content: "And tomorrow?" }];
    const replay = (messages: ModelMessage[], middleware = false) =>
      ai.generateText({
        model: middleware
          ? ai.wrapLanguageModel({
              model: provider().chatModel("text"),
              middleware: toolcallMiddleware({ repairs: coreRepairs }),
            })
          : provider().chatModel("text"),
        messages,
        tools: { weather: weather(ai) },
      });
    await expect(replay(next)).rejects.toMatchObject({
      statusCode: 400,
      responseBody: dashScopeError(ARGUMENTS_ERROR),
    });
    const { messages } = sanitizeModelMessages(next, { repairs: coreRepairs });
    expect((await replay(messages)).text).toBe("Accepted.");
    const viaMiddleware = await replay(next, true);
    expect(viaMiddleware.text).toBe("Accepted.");
    expect(viaMiddleware.providerMetadata?.toolcall).toEqual({ history: { arguments_canonicalized: 1 } });
  });

  it("a missing result: the SDK refuses before any middleware runs; sanitizeModelMessages makes it replayable", async () => {
    const history: ModelMessage[] = [
      { role: "user", content: "Weather?" },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c1", toolName: "weather", input: { location: "Paris" } }],
      },
      { role: "user", content: "Hello?" },
    ];
    const model = ai.wrapLanguageModel({
      model: provider().chatModel("text"),
      middleware: toolcallMiddleware(),
    });
    await expect(ai.generateText({ model, messages: history })).rejects.toBeInstanceOf(
      ai.MissingToolResultsError,
    );
    const { messages } = sanitizeModelMessages(history);
    expect((await ai.generateText({ model, messages })).text).toBe("Accepted.");
  });
});
