import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { type AIMessage, AIMessageChunk, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreRepairs, repairToolCalls, ToolCallRepairer, withSafeToolCalls } from "../src/index.js";
import { quietLangChain } from "./quiet-langchain.js";
import { fixture, replay, startServer, type TestServer } from "./servers.js";

// ChatOpenAI against a local server replaying what vLLM sent in the recorded cases, whole and streamed.

let server: TestServer;
beforeAll(async () => {
  quietLangChain();
  server = await startServer((request, response) => replay(request, response));
});
afterAll(() => server.close());

const repairs = [...coreRepairs, gemmaQuoteMarkers];
const chatOpenAI = (fixture: string) =>
  new ChatOpenAI({
    model: fixture,
    apiKey: "test",
    maxRetries: 0,
    configuration: { baseURL: server.baseURL },
  });

async function merged(stream: AsyncIterable<BaseMessage>): Promise<AIMessageChunk> {
  let full: AIMessageChunk | undefined;
  for await (const chunk of stream)
    full = full === undefined ? (chunk as AIMessageChunk) : full.concat(chunk as AIMessageChunk);
  return full as AIMessageChunk;
}

/** The calls of a message, as a test compares them. */
function callsOf(message: BaseMessage) {
  const ai = message as AIMessage;
  return {
    tool_calls: (ai.tool_calls ?? []).map(({ id, name, args }) => ({ id, name, args })),
    invalid_tool_calls: (ai.invalid_tool_calls ?? []).map(({ id, name, args, error }) => ({
      id,
      name,
      args,
      error,
    })),
  };
}

const question = [new HumanMessage("Go ahead.")];

interface Case {
  fixture: string;
  tool_calls: Array<{ id: string; name: string; args: Record<string, unknown> }>;
  invalid_tool_calls: Array<{ id: string; name: string; args: string; error: string }>;
  statuses: string[];
}

const cases: Case[] = [
  {
    fixture: "vllm-empty-arguments",
    tool_calls: [{ id: "chatcmpl-tool-3c1d0", name: "get_time", args: {} }],
    invalid_tool_calls: [],
    statuses: ["empty"],
  },
  {
    fixture: "vllm-null-arguments",
    tool_calls: [{ id: "chatcmpl-tool-8a020", name: "list_files", args: {} }],
    invalid_tool_calls: [],
    statuses: ["null_literal"],
  },
  {
    fixture: "vllm-double-encoded",
    tool_calls: [{ id: "chatcmpl-tool-51b70", name: "add", args: { a: 3, b: 4 } }],
    invalid_tool_calls: [],
    statuses: ["double_encoded"],
  },
  {
    fixture: "vllm-scalar-arguments",
    tool_calls: [],
    invalid_tool_calls: [
      { id: "chatcmpl-tool-e9400", name: "set_volume", args: "42", error: "arguments_not_object" },
      { id: "chatcmpl-tool-e9401", name: "echo", args: '"escaped string"', error: "arguments_not_object" },
    ],
    statuses: ["non_object", "non_object"],
  },
  {
    fixture: "vllm-invalid-json",
    tool_calls: [{ id: "chatcmpl-tool-27fd1", name: "glob", args: { paths: ["*.py"] } }],
    invalid_tool_calls: [
      { id: "chatcmpl-tool-27fd0", name: "read_file", args: "{invalid", error: "arguments_invalid_json" },
    ],
    statuses: ["invalid", "repaired"],
  },
  {
    fixture: "vllm-length-stop",
    tool_calls: [],
    invalid_tool_calls: [
      { id: "chatcmpl-tool-b6e40", name: "set_value", args: '{"value": ', error: "arguments_truncated" },
    ],
    statuses: ["truncated"],
  },
  {
    fixture: "vllm-gemma4-marker-leak",
    tool_calls: [
      {
        id: "chatcmpl-tool-9f2c0",
        name: "search_boe",
        args: { query: "BOE resolución julio 2023", limit: 5 },
      },
      {
        id: "chatcmpl-tool-9f2c1",
        name: "get_document",
        args: { date: "2023-09-18", title: "Resolución de 28 de julio de 2023" },
      },
    ],
    invalid_tool_calls: [],
    statuses: ["object", "repaired"],
  },
  {
    fixture: "vllm-parallel-calls",
    tool_calls: [
      { id: "chatcmpl-tool-d17a0", name: "get_weather", args: { city: "Paris" } },
      { id: "chatcmpl-tool-d17a1", name: "get_weather", args: { city: "paris" } },
      { id: "chatcmpl-tool-d17a2", name: "skills_list", args: { category: "research" } },
    ],
    invalid_tool_calls: [
      {
        id: "chatcmpl-tool-d17a3",
        name: "patch",
        args: '[{"mode": "replace", "path": "config.yaml"}]',
        error: "arguments_not_object",
      },
    ],
    statuses: ["object", "repaired", "repaired", "non_object"],
  },
];

describe("ChatOpenAI on recorded vLLM responses", () => {
  for (const testCase of cases) {
    const expected = { tool_calls: testCase.tool_calls, invalid_tool_calls: testCase.invalid_tool_calls };

    it(`${testCase.fixture}: the wrapper's invoke gives the repaired message`, async () => {
      const model = withSafeToolCalls(chatOpenAI(testCase.fixture), { repairs });
      const message = await model.invoke(question);
      expect(callsOf(message)).toEqual(expected);
      const decisions = (
        message.response_metadata.toolcall as { calls?: Array<{ status: string }> } | undefined
      )?.calls;
      if (testCase.statuses.every((status) => status === "object")) expect(decisions).toBeUndefined();
      // The report lists the calls that were not kept as they came (core's ToolcallReport).
      else
        expect(decisions?.map((decision) => decision.status)).toEqual(
          testCase.statuses.filter((status) => status !== "object"),
        );
      // The provider's list: JSON object text for every call that can run; the model's own text for the others
      // (a fresh answer never turns them into text that parses; sanitizing the history makes a replay acceptable).
      const wire = (message as AIMessage).additional_kwargs.tool_calls ?? [];
      const usable = new Set((message as AIMessage).tool_calls?.map((call) => call.id));
      for (const call of wire) {
        if (usable.has(call.id)) expect(typeof JSON.parse(call.function.arguments)).toBe("object");
        else
          expect(testCase.invalid_tool_calls.find((invalid) => invalid.id === call.id)?.args).toBe(
            call.function.arguments,
          );
      }
    });

    it(`${testCase.fixture}: the wrapper's stream merges to the same message`, async () => {
      const model = withSafeToolCalls(chatOpenAI(testCase.fixture), { repairs });
      const full = await merged(await model.stream(question));
      expect(callsOf(full)).toEqual(expected);
      const invoked = await model.invoke(question);
      expect(full.content).toEqual(invoked.content);
      expect(full.additional_kwargs.tool_calls?.map((call) => call.function.arguments)).toEqual(
        (invoked as AIMessage).additional_kwargs.tool_calls?.map((call) => call.function.arguments),
      );
    });

    it(`${testCase.fixture}: repairToolCalls answers a whole message and a merged stream alike`, async () => {
      const model = chatOpenAI(testCase.fixture);
      const whole = repairToolCalls(await model.invoke(question), { repairs });
      const streamed = repairToolCalls(await merged(await model.stream(question)), { repairs });
      expect(callsOf(whole.message)).toEqual(expected);
      expect(callsOf(streamed.message)).toEqual(expected);
      // Same outcome for every call. Statuses agree too, but for "": R9 reads an empty stream buffer as absent.
      const outcomes = (calls: typeof whole.calls) =>
        calls.map(({ toolCallId, name, outcome, issue, repairs, arguments: mapping }) => ({
          toolCallId,
          name,
          outcome,
          issue,
          repairs,
          mapping,
        }));
      expect(outcomes(streamed.calls)).toEqual(outcomes(whole.calls));
      expect(streamed.calls.map((call) => call.status)).toEqual(
        testCase.statuses.map((status) => (status === "empty" ? "absent" : status)),
      );
    });
  }

  it("LangChain alone reads the same response two ways; the repair reads it once", async () => {
    const model = chatOpenAI("vllm-scalar-arguments");
    const whole = await model.invoke(question);
    const streamed = await merged(await model.stream(question));
    // "42" is a valid call with args 42 in the whole message and an invalid call in the stream.
    expect(whole.tool_calls?.[0]?.args).toBe(42);
    expect(streamed.invalid_tool_calls?.[0]?.args).toBe("42");
    expect(callsOf(repairToolCalls(whole).message)).toEqual(callsOf(repairToolCalls(streamed).message));
  });

  it("LangChain alone completes cut-off streamed arguments into a call that runs; the repair does not", async () => {
    const streamed = await merged(await chatOpenAI("vllm-length-stop").stream(question));
    expect(streamed.response_metadata.finish_reason).toBe("length");
    expect(streamed.tool_calls).toHaveLength(1);
    const { message } = repairToolCalls(streamed);
    expect((message as AIMessage).tool_calls).toEqual([]);
    expect((message as AIMessage).invalid_tool_calls?.[0]?.error).toBe("arguments_truncated");
  });

  it("a stream cut before its finish reason leaves broken calls truncated, as a length stop does", async () => {
    // The recorded length-stop stream cut before its finish frame: no finish_reason, no [DONE].
    const frames = fixture("vllm-length-stop.sse").toString("utf8").split("\n\n");
    const cut = `${frames
      .filter((frame) => !frame.includes('"finish_reason":"length"'))
      .slice(0, 4)
      .join("\n\n")}\n\n`;
    const cutServer = await startServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(cut);
    });
    try {
      const model = new ChatOpenAI({
        model: "m",
        apiKey: "test",
        maxRetries: 0,
        configuration: { baseURL: cutServer.baseURL },
      });
      const plain = await merged(await model.stream(question));
      expect(plain.response_metadata.finish_reason).toBeUndefined();
      const guarded = await merged(await withSafeToolCalls(model, { repairs }).stream(question));
      expect(guarded.tool_calls).toEqual([]);
      expect(guarded.invalid_tool_calls).toMatchObject([
        { name: "set_value", args: '{"value": ', error: "arguments_truncated" },
      ]);
    } finally {
      await cutServer.close();
    }
  });

  it("streams text and clean argument fragments as they arrive; a held call's rest comes at the end", async () => {
    const model = withSafeToolCalls(chatOpenAI("vllm-parallel-calls"), { repairs });
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model.stream(question)) chunks.push(chunk);
    const fragments = (call: number) =>
      chunks.flatMap((chunk, position) =>
        (chunk.tool_call_chunks ?? [])
          .filter((fragment) => fragment.index === call && fragment.args !== "")
          .map((fragment) => [position, fragment.args]),
      );
    // The clean call: the server's own fragments, each in the chunk that brought it, long before the end.
    expect(fragments(0).map(([, args]) => args)).toEqual(['{"city"', ': "Pari', 's"}']);
    expect(fragments(0).every(([position]) => (position as number) < chunks.length - 1)).toBe(true);
    // The fenced call was held from its first fragment: its repaired text comes in the last chunk.
    expect(fragments(1)).toEqual([[chunks.length - 1, '{"city":"paris"}']]);
    expect(chunks.filter((chunk) => chunk.content !== "").length).toBeGreaterThan(1);
    const full = await merged(chunks as never);
    expect(full.content).toBe("Let me check both cities.");
    expect(callsOf(full)).toEqual({
      tool_calls: cases[7]?.tool_calls,
      invalid_tool_calls: cases[7]?.invalid_tool_calls,
    });
  });

  it("repairs are configurable: without the Gemma repair the leaked call cannot run", async () => {
    const plain = await withSafeToolCalls(chatOpenAI("vllm-gemma4-marker-leak")).invoke(question);
    expect(callsOf(plain).invalid_tool_calls.map((call) => call.error)).toEqual(["arguments_invalid_json"]);
    const core = await withSafeToolCalls(chatOpenAI("vllm-gemma4-marker-leak"), {
      repairs: coreRepairs,
    }).invoke(question);
    expect(callsOf(core).invalid_tool_calls).toHaveLength(1);
    const gemma = await withSafeToolCalls(chatOpenAI("vllm-gemma4-marker-leak"), {
      repairs: [gemmaQuoteMarkers],
    }).invoke(question);
    expect(callsOf(gemma).invalid_tool_calls).toEqual([]);
  });

  it("invoke with a streaming callback handler merges the repaired chunks", async () => {
    class Tokens extends BaseCallbackHandler {
      name = "tokens";
      lc_prefer_streaming = true;
      tokens: string[] = [];
      override handleLLMNewToken(token: string) {
        this.tokens.push(token);
      }
    }
    const handler = new Tokens();
    const model = withSafeToolCalls(chatOpenAI("vllm-parallel-calls"), { repairs });
    const message = await model.invoke(question, { callbacks: [handler] });
    expect(callsOf(message)).toEqual({
      tool_calls: cases[7]?.tool_calls,
      invalid_tool_calls: cases[7]?.invalid_tool_calls,
    });
    expect(handler.tokens.join("")).toBe("Let me check both cities.");
  });

  it("the content-block event protocol carries the repaired calls", async () => {
    const model = withSafeToolCalls(chatOpenAI("vllm-parallel-calls"), { repairs });
    const stream = model.streamEvents(question) as unknown as PromiseLike<AIMessage>;
    const message = await stream;
    expect(message.tool_calls?.map(({ id, name, args }) => ({ id, name, args }))).toEqual(
      cases[7]?.tool_calls,
    );
    const blocks = message.content as Array<{ type: string; id?: string; error?: string }>;
    expect(blocks.filter((block) => block.type === "invalid_tool_call")).toMatchObject([
      { id: "chatcmpl-tool-d17a3", error: "arguments_not_object" },
    ]);
  });

  it("binds tools on the guarded model and stays guarded", async () => {
    const model = withSafeToolCalls(chatOpenAI("vllm-null-arguments"), { repairs });
    const bound = model.bindTools([
      { type: "function", function: { name: "list_files", parameters: { type: "object", properties: {} } } },
    ]);
    const message = await bound.invoke(question);
    expect(callsOf(message).tool_calls).toEqual(cases[1]?.tool_calls);
    expect(server.requests.at(-1)?.tools).toEqual([
      { type: "function", function: { name: "list_files", parameters: { type: "object", properties: {} } } },
    ]);
  });

  it("a ToolCallRepairer after the model repairs in an LCEL pipeline, streamed or not", async () => {
    const chain = chatOpenAI("vllm-invalid-json").pipe(new ToolCallRepairer({ repairs }));
    const expected = { tool_calls: cases[4]?.tool_calls, invalid_tool_calls: cases[4]?.invalid_tool_calls };
    expect(callsOf(await chain.invoke(question))).toEqual(expected);
    expect(callsOf(await merged(await chain.stream(question)))).toEqual(expected);
  });
});

describe("chunks the wrapper yields", () => {
  it("merge with LangChain's concat like the whole message, invalid calls included", async () => {
    const model = withSafeToolCalls(chatOpenAI("vllm-length-stop"));
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model.stream(question)) chunks.push(chunk);
    const full = chunks.reduce((all, chunk) => all.concat(chunk));
    expect(full).toBeInstanceOf(AIMessageChunk);
    expect(callsOf(full)).toEqual({ tool_calls: [], invalid_tool_calls: cases[5]?.invalid_tool_calls });
    // Serialized, it is a plain AIMessageChunk.
    expect((full.toJSON() as { id: string[] }).id).toEqual(["langchain_core", "messages", "AIMessageChunk"]);
  });
});
