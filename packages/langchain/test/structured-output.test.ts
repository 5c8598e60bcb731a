import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { coreRepairs, STRUCTURED_OUTPUT_KEY, TOOLCALL_REPORT_KEY, withSafeToolCalls } from "../src/index.js";
import { quietLangChain } from "./quiet-langchain.js";
import { type ChatRequest, startServer, type TestServer } from "./servers.js";

// withSafeToolCalls(model).withStructuredOutput(schema) against a loopback server that answers as a model behind
// vLLM does: the structured answer as text (JSON schema mode) or as a tool call (function calling), malformed the
// way the model writes it.

const ANSWERS: Record<string, { text: string; finish?: string }> = {
  clean: { text: '{"city": "Paris"}' },
  fenced: { text: '```json\n{"city": "Paris"}\n```' },
  python: { text: "{'city': 'Paris'}" },
  cut: { text: '{"city": "Par', finish: "length" },
};

function answer(request: ChatRequest) {
  const scripted = ANSWERS[request.model] ?? { text: "{}" };
  const tools = request.tools as Array<{ function: { name: string } }> | undefined;
  const message =
    tools !== undefined && request.response_format === undefined
      ? {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_1",
              type: "function",
              function: { name: tools[0]?.function.name, arguments: scripted.text },
            },
          ],
        }
      : { role: "assistant", content: scripted.text };
  return {
    id: "chatcmpl-structured",
    object: "chat.completion",
    created: 1775000000,
    model: request.model,
    choices: [
      {
        index: 0,
        message,
        finish_reason: scripted.finish ?? (tools === undefined ? "stop" : "tool_calls"),
        logprobs: null,
      },
    ],
  };
}

let server: TestServer;
beforeAll(async () => {
  quietLangChain();
  server = await startServer((request, response) => {
    const whole = answer(request);
    if (request.stream !== true) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(whole));
      return;
    }
    // Streamed as servers stream: the text (or the call's arguments) in small deltas, then the finish.
    const [choice] = whole.choices;
    const message = choice?.message as {
      content?: string | null;
      tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
    };
    const base = {
      id: whole.id,
      object: "chat.completion.chunk",
      created: whole.created,
      model: whole.model,
    };
    const frame = (delta: unknown, finish: string | null = null) =>
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] })}\n\n`;
    let body = frame({ role: "assistant", content: "" });
    const call = message.tool_calls?.[0];
    const text = (call?.function?.arguments as string | undefined) ?? message.content ?? "";
    if (call !== undefined)
      body += frame({
        tool_calls: [
          { index: 0, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } },
        ],
      });
    for (let at = 0; at < text.length; at += 4) {
      const piece = text.slice(at, at + 4);
      body += frame(
        call === undefined
          ? { content: piece }
          : { tool_calls: [{ index: 0, function: { arguments: piece } }] },
      );
    }
    body += `${frame({}, choice?.finish_reason ?? "stop")}data: [DONE]\n\n`;
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end(body);
  });
});
afterAll(() => server.close());

const chatOpenAI = (model: string) =>
  new ChatOpenAI({ model, apiKey: "test", maxRetries: 0, configuration: { baseURL: server.baseURL } });
const City = z.object({ city: z.string() });
const ask = [new HumanMessage("Where is the Louvre?")];

describe("withSafeToolCalls(model).withStructuredOutput(schema)", () => {
  for (const method of ["jsonSchema", "functionCalling"] as const) {
    it(`${method}: reads a clean answer, and repairs a fenced or Python answer the model's parser cannot read`, async () => {
      for (const model of ["clean", "fenced", "python"]) {
        const guarded = withSafeToolCalls(chatOpenAI(model), { repairs: coreRepairs });
        expect(await guarded.withStructuredOutput(City, { method }).invoke(ask), model).toEqual({
          city: "Paris",
        });
      }
      for (const model of ["fenced", "python"])
        await expect(
          chatOpenAI(model).withStructuredOutput(City, { method }).invoke(ask),
          model,
        ).rejects.toThrow();
    });
  }

  it("never repairs an answer cut by a length stop", async () => {
    const guarded = withSafeToolCalls(chatOpenAI("cut"), { repairs: coreRepairs });
    await expect(guarded.withStructuredOutput(City).invoke(ask)).rejects.toThrow(/could not be read/);
    const raw = await guarded.withStructuredOutput(City, { includeRaw: true }).invoke(ask);
    expect(raw.parsed).toBeNull();
  });

  it("with includeRaw, gives the repaired answer, which says what was repaired", async () => {
    const guarded = withSafeToolCalls(chatOpenAI("fenced"), { repairs: coreRepairs });
    const text = await guarded.withStructuredOutput(City, { includeRaw: true }).invoke(ask);
    expect(text.parsed).toEqual({ city: "Paris" });
    expect((text.raw.response_metadata as Record<string, unknown>)[STRUCTURED_OUTPUT_KEY]).toEqual({
      status: "repaired",
      repairs: ["markdown-fence"],
    });
    const call = await guarded
      .withStructuredOutput(City, { includeRaw: true, method: "functionCalling" })
      .invoke(ask);
    expect(call.parsed).toEqual({ city: "Paris" });
    expect((call.raw as AIMessage).tool_calls?.[0]?.args).toEqual({ city: "Paris" });
    expect((call.raw.response_metadata as Record<string, unknown>)[TOOLCALL_REPORT_KEY]).toMatchObject({
      calls: [{ status: "repaired", repairs: ["markdown-fence"] }],
    });
  });

  it("sends the history sanitized", async () => {
    const history: BaseMessage[] = [
      ...ask,
      new AIMessage({
        content: "",
        additional_kwargs: {
          tool_calls: [{ id: "c1", type: "function", function: { name: "lookup", arguments: "{'q': 1}" } }],
        },
      }),
      new ToolMessage({ tool_call_id: "c1", content: "ok" }),
      new ToolMessage({ tool_call_id: "stale", content: "orphan" }),
    ];
    await withSafeToolCalls(chatOpenAI("clean"), { repairs: coreRepairs })
      .withStructuredOutput(City)
      .invoke(history);
    const sent = server.requests.at(-1)?.messages ?? [];
    expect(sent.filter((message) => message.role === "tool").map((message) => message.tool_call_id)).toEqual([
      "c1",
    ]);
    const replayed = (sent[1]?.tool_calls ?? []) as Array<{ function: { arguments: string } }>;
    expect(replayed[0]?.function.arguments).toBe('{"q":1}');
  });
});

describe("withSafeToolCalls tracing", () => {
  it("names the wrapped model, bound or not", () => {
    const inner = chatOpenAI("clean");
    const params = withSafeToolCalls(inner).getLsParams({} as never);
    expect(params).toMatchObject({ ls_provider: "openai", ls_model_name: "clean", ls_model_type: "chat" });
    const bound = withSafeToolCalls(inner).bindTools([
      { type: "function", function: { name: "f", parameters: { type: "object", properties: {} } } },
    ]);
    expect(bound.getLsParams({} as never)).toMatchObject({ ls_provider: "openai", ls_model_name: "clean" });
  });
});
