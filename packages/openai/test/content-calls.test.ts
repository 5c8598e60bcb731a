import type { ServerResponse } from "node:http";
import { coreRepairs } from "@toolcall/core";
import { gemma4 } from "@toolcall/gemma-recovery";
import { qwen3Coder } from "@toolcall/model-formats";
import fc from "fast-check";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  contentAnswer,
  GEMMA_CONTENT_CALL as GEMMA,
  QWEN_CONTENT_CALL as QWEN,
  QWEN_CODER_TEMPLATE,
} from "../../core/test/fake-providers/vllm-answers.js";
import {
  type ExtractionReport,
  guardFetch,
  guardOpenAI,
  REPAIRS_HEADER,
  type ToolcallReport,
} from "../src/index.js";
import { startServer, type TestServer } from "./server.js";

// guardFetch({ contentCalls }) against a loopback server answering as vLLM does when its tool parser leaves the
// model's native calls in `content`: Qwen3-Coder XML (a look-alike of vLLM's `qwen3_coder` output, the text the
// model writes), and Gemma 4 native calls (recorded vLLM traffic, @toolcall/gemma-recovery's fixture).

const tools = [
  {
    type: "function" as const,
    function: {
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } },
    },
  },
];
/** The SSE body vLLM sends: the text in deltas of `piece` characters. */
const sse = (text: string, piece: number): Buffer =>
  Buffer.from(contentAnswer({ text, stream: true, piece }).body);

/** Writes `body` cut at `cuts` (byte offsets), each piece a separate socket write. */
async function write(response: ServerResponse, body: Buffer, cuts: readonly number[]): Promise<void> {
  let from = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    if (cut <= from || cut >= body.length) continue;
    response.write(body.subarray(from, cut));
    from = cut;
    await new Promise((resolve) => setImmediate(resolve));
  }
  response.end(body.subarray(from));
}

interface Ask {
  text: string;
  piece?: number;
  cuts?: number[];
}
let server: TestServer;
beforeAll(async () => {
  server = await startServer(async (request, response) => {
    const body = request.body as { stream?: boolean; metadata?: { ask?: string } };
    const ask = JSON.parse(body.metadata?.ask ?? "{}") as Ask;
    if (body.stream) {
      response.writeHead(200, { "content-type": "text/event-stream" });
      await write(response, sse(ask.text, ask.piece ?? 5), ask.cuts ?? []);
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(contentAnswer({ text: ask.text }).body);
  });
});
afterAll(() => server.close());

function client(reports: ExtractionReport[] = []): OpenAI {
  const fetch = guardFetch(globalThis.fetch, {
    repairs: coreRepairs,
    contentCalls: [qwen3Coder, gemma4],
    onContentCall: (report) => reports.push(report),
  });
  return new OpenAI({ apiKey: "none", baseURL: server.baseURL, fetch, maxRetries: 0 });
}
const messages = [{ role: "user" as const, content: "Weather?" }];

async function streamed(ask: Ask, reports: ExtractionReport[] = []) {
  const stream = await client(reports).chat.completions.create({
    model: "m",
    messages,
    tools,
    stream: true,
    metadata: { ask: JSON.stringify(ask) },
  });
  let content = "";
  let finish: string | null = null;
  const calls: Array<{ name: string; arguments: string }> = [];
  for await (const chunk of stream) {
    const choice = chunk.choices[0];
    content += choice?.delta.content ?? "";
    finish = choice?.finish_reason ?? finish;
    for (const call of choice?.delta.tool_calls ?? []) {
      calls[call.index] ??= { name: "", arguments: "" };
      const into = calls[call.index] as { name: string; arguments: string };
      into.name += call.function?.name ?? "";
      into.arguments += call.function?.arguments ?? "";
    }
  }
  return { content, finish, calls };
}

describe("guardFetch({ contentCalls }) through the openai SDK", () => {
  it("recovers a Qwen3-Coder call left in content, typed by the request's schemas, and says so", async () => {
    const reports: ExtractionReport[] = [];
    const { data, response } = await client(reports)
      .chat.completions.create({
        model: "m",
        messages,
        tools,
        metadata: { ask: JSON.stringify({ text: QWEN }) },
      })
      .withResponse();
    const choice = data.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.content).toBe("Let me check.");
    expect(choice?.message.tool_calls?.map((c) => (c.type === "function" ? c.function : c))).toEqual([
      { name: "get_weather", arguments: '{"city": "Paris", "days": 3}' },
    ]);
    expect(JSON.parse(response.headers.get(REPAIRS_HEADER) ?? "{}")).toEqual({
      calls: [
        {
          choice: 0,
          id: choice?.message.tool_calls?.[0]?.id,
          name: "get_weather",
          status: "recovered",
          repairs: ["content-call"],
          usable: true,
          syntax: "qwen3-coder",
        },
      ],
    });
    expect(reports.map((r) => r.kind === "tool_call" && r.syntax)).toEqual(["qwen3-coder"]);
  });

  it("recovers a Gemma 4 call left in content (recorded vLLM text) and says so", async () => {
    const { data, response } = await client()
      .chat.completions.create({ model: "m", messages, metadata: { ask: JSON.stringify({ text: GEMMA }) } })
      .withResponse();
    const choice = data.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.tool_calls?.map((c) => (c.type === "function" ? c.function : c))).toEqual([
      { name: "patch", arguments: '{"content": "print(\'hi\')", "mode": "overwrite", "path": "/tmp/a.py"}' },
    ]);
    expect(JSON.parse(response.headers.get(REPAIRS_HEADER) ?? "{}").calls).toMatchObject([
      { name: "patch", status: "recovered", repairs: ["content-call"], syntax: "gemma4" },
    ]);
  });

  it("leaves content alone without contentCalls", async () => {
    const plain = new OpenAI({ apiKey: "none", baseURL: server.baseURL, fetch: guardFetch(), maxRetries: 0 });
    const data = await plain.chat.completions.create({
      model: "m",
      messages,
      metadata: { ask: JSON.stringify({ text: QWEN }) },
    });
    expect(data.choices[0]?.message.content).toBe(QWEN);
    expect(data.choices[0]?.message.tool_calls).toBeUndefined();
  });

  it("recovers both from a stream, one character per delta", async () => {
    for (const [text, name] of [
      [QWEN, "get_weather"],
      [GEMMA, "patch"],
    ] as const) {
      const reports: ExtractionReport[] = [];
      const result = await streamed({ text, piece: 1 }, reports);
      expect(result.finish).toBe("tool_calls");
      expect(result.calls.map((c) => c.name)).toEqual([name]);
      expect(reports.filter((r) => r.kind === "tool_call")).toHaveLength(1);
    }
  });

  it("gives the same calls and content however the stream's bytes are split", async () => {
    const whole = await streamed({ text: QWEN, piece: 4 });
    const size = sse(QWEN, 4).length;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: size - 1 }), { maxLength: 12 }), async (cuts) => {
        expect(await streamed({ text: QWEN, piece: 4, cuts })).toEqual(whole);
      }),
      { numRuns: 25 },
    );
    expect(whole.calls).toEqual([{ name: "get_weather", arguments: '{"city": "Paris", "days": 3}' }]);
  });

  it("guardOpenAI takes the same contentCalls: both calls recovered through the SDK, whole and streamed, told to onReport", async () => {
    const raw = new OpenAI({ apiKey: "none", baseURL: server.baseURL, maxRetries: 0 });
    const reports: ToolcallReport[] = [];
    const client = guardOpenAI(raw, {
      repairs: coreRepairs,
      contentCalls: [qwen3Coder, gemma4],
      onReport: (report) => reports.push(report),
    });
    for (const [text, name, syntax] of [
      [QWEN, "get_weather", "qwen3-coder"],
      [GEMMA, "patch", "gemma4"],
    ] as const) {
      reports.length = 0;
      const data = await client.chat.completions.create({
        model: "m",
        messages,
        tools,
        metadata: { ask: JSON.stringify({ text }) },
      });
      const call = data.choices[0]?.message.tool_calls?.[0];
      expect(call?.type === "function" && call.function.name).toBe(name);
      expect(reports).toEqual([
        {
          calls: [expect.objectContaining({ name, status: "recovered", repairs: ["content-call"], syntax })],
        },
      ]);
      reports.length = 0;
      const stream = await client.chat.completions.create({
        model: "m",
        messages,
        tools,
        stream: true,
        metadata: { ask: JSON.stringify({ text, piece: 3 }) },
      });
      const names: string[] = [];
      for await (const chunk of stream)
        for (const delta of chunk.choices[0]?.delta.tool_calls ?? [])
          if (delta.function?.name) names.push(delta.function.name);
      expect(names).toEqual([name]);
      expect(reports).toEqual([{ calls: [expect.objectContaining({ name, status: "recovered", syntax })] }]);
    }
  });

  it('contentCalls "auto" reads the syntax of a real chat template; a template it cannot name is refused', async () => {
    const chatTemplate = QWEN_CODER_TEMPLATE;
    const raw = new OpenAI({ apiKey: "none", baseURL: server.baseURL, maxRetries: 0 });
    const client = guardOpenAI(raw, { contentCalls: "auto", chatTemplate });
    const data = await client.chat.completions.create({
      model: "m",
      messages,
      tools,
      metadata: { ask: JSON.stringify({ text: QWEN }) },
    });
    expect(data.choices[0]?.finish_reason).toBe("tool_calls");
    expect(() => guardOpenAI(raw, { contentCalls: "auto" })).toThrow(/chat_template_missing/);
    expect(() => guardFetch(fetch, { contentCalls: "auto", chatTemplate: "{{ messages }}" })).toThrow(
      /syntax_undetected/,
    );
  });
});
