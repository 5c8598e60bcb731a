import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { coreRepairs } from "@toolcall/core";
import { gemma4 } from "@toolcall/gemma-recovery";
import { qwen3Coder } from "@toolcall/model-formats";
import { generateText, jsonSchema, streamText, tool, wrapLanguageModel } from "ai";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ToolcallReport, toolcallMiddleware } from "../src/index.js";

// The middleware's `contentCalls` with the real `ai` and `@ai-sdk/openai-compatible` against a loopback server
// answering as vLLM does when its tool parser leaves the model's native calls in `content`: Qwen3-Coder XML (a
// look-alike of the text the model writes) and Gemma 4 native calls (recorded vLLM traffic, @toolcall/gemma-recovery's
// fixture). Whole answers and streams cut anywhere give the same calls, run by the SDK.

const QWEN =
  "Let me check.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>";
const GEMMA = readFileSync(
  join(import.meta.dirname, "../../gemma-recovery/test/__fixtures__/vllm-gemma4-native-call-in-content.sse"),
  "utf8",
)
  .split("\n")
  .filter((line) => line.startsWith("data: {"))
  .map((line) => JSON.parse(line.slice(6)).choices[0]?.delta?.content ?? "")
  .join("");
const QWEN_TEMPLATE = readFileSync(
  join(import.meta.dirname, "../../../../shared/templates/Qwen-Qwen3-Coder-30B-A3B-Instruct.jinja"),
  "utf8",
);

const frame = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** What the server answers next: the text, whole or in deltas of `piece` characters. */
let answer = { text: "", piece: 5 };
let server: Server;
let baseURL = "";
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const { text, piece } = answer;
      if ((JSON.parse(body) as { stream?: boolean }).stream) {
        response.writeHead(200, { "content-type": "text/event-stream" });
        let out = frame({ role: "assistant", content: "" });
        for (let at = 0; at < text.length; at += piece) out += frame({ content: text.slice(at, at + piece) });
        response.end(`${out}${frame({}, "stop")}data: [DONE]\n\n`);
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: "c",
          object: "chat.completion",
          created: 1,
          model: "m",
          choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const ran: unknown[] = [];
const tools = {
  get_weather: tool({
    inputSchema: jsonSchema<{ city: string; days?: number }>({
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer" } },
      required: ["city"],
    }),
    execute: async (input) => {
      ran.push(input);
      return "sunny";
    },
  }),
  // Gemma's recorded call.
  patch: tool({
    inputSchema: jsonSchema<Record<string, unknown>>({ type: "object" }),
    execute: async (input) => {
      ran.push(input);
      return "written";
    },
  }),
};

function model(options: Parameters<typeof toolcallMiddleware>[0]) {
  return wrapLanguageModel({
    model: createOpenAICompatible({ name: "vllm", baseURL }).chatModel("m"),
    middleware: toolcallMiddleware(options),
  });
}

async function whole(text: string, options: Parameters<typeof toolcallMiddleware>[0]) {
  answer = { text, piece: 5 };
  ran.length = 0;
  const result = await generateText({ model: model(options), tools, prompt: "Weather?" });
  return {
    calls: result.toolCalls,
    metadata: result.providerMetadata,
    ran: [...ran],
    content: result.text,
    finish: result.finishReason,
  };
}

async function streamed(text: string, piece: number, options: Parameters<typeof toolcallMiddleware>[0]) {
  answer = { text, piece };
  ran.length = 0;
  const result = streamText({ model: model(options), tools, prompt: "Weather?" });
  let content = "";
  for await (const part of result.fullStream) if (part.type === "text-delta") content += part.text;
  return {
    calls: await result.toolCalls,
    metadata: await result.providerMetadata,
    ran: [...ran],
    content,
    finish: await result.finishReason,
  };
}

describe("toolcallMiddleware({ contentCalls }) with ai and @ai-sdk/openai-compatible", () => {
  it("recovers a Qwen3-Coder call left in content, typed by the tool's schema, and reports it", async () => {
    const result = await whole(QWEN, { repairs: coreRepairs, contentCalls: [qwen3Coder] });
    expect(result.calls.map((call) => [call.toolName, call.input])).toEqual([
      ["get_weather", { city: "Paris", days: 3 }],
    ]);
    expect(result.ran).toEqual([{ city: "Paris", days: 3 }]);
    expect(result.finish).toBe("tool-calls");
    const report = result.metadata?.toolcall as ToolcallReport | undefined;
    expect(report?.calls).toMatchObject([
      {
        name: "get_weather",
        status: "recovered",
        repairs: ["content-call"],
        usable: true,
        syntax: "qwen3-coder",
      },
    ]);
  });

  it("recovers the recorded Gemma 4 call, whole and streamed", async () => {
    const options = { repairs: coreRepairs, contentCalls: [qwen3Coder, gemma4] };
    const fromWhole = await whole(GEMMA, options);
    expect(fromWhole.calls.map((call) => call.toolName)).toEqual(["patch"]);
    expect((fromWhole.metadata?.toolcall as ToolcallReport | undefined)?.calls?.[0]).toMatchObject({
      syntax: "gemma4",
    });
    const fromStream = await streamed(GEMMA, 7, options);
    expect(fromStream.calls.map((call) => [call.toolName, call.input])).toEqual(
      fromWhole.calls.map((call) => [call.toolName, call.input]),
    );
    expect(fromStream.ran).toEqual(fromWhole.ran);
    expect((fromStream.metadata?.toolcall as ToolcallReport | undefined)?.calls?.[0]).toMatchObject({
      status: "recovered",
      syntax: "gemma4",
    });
  });

  it('"auto" with the model\'s chat template reads Qwen3-Coder calls; a template it cannot name is refused', async () => {
    const result = await whole(QWEN, { contentCalls: "auto", chatTemplate: QWEN_TEMPLATE });
    expect(result.ran).toEqual([{ city: "Paris", days: 3 }]);
    expect(() => toolcallMiddleware({ contentCalls: "auto" })).toThrow(/chat_template_missing/);
    expect(() => toolcallMiddleware({ contentCalls: "auto", chatTemplate: "{{ messages }}" })).toThrow(
      /syntax_undetected/,
    );
  });

  it("a stream cut anywhere gives the calls and the text of the whole answer", async () => {
    const options = { repairs: coreRepairs, contentCalls: [qwen3Coder] };
    const reference = await whole(QWEN, options);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), async (piece) => {
        const result = await streamed(QWEN, piece, options);
        expect(result.calls.map((call) => [call.toolName, call.input])).toEqual(
          reference.calls.map((call) => [call.toolName, call.input]),
        );
        expect(result.content).toBe(reference.content);
        expect(result.finish).toBe("tool-calls");
      }),
      { numRuns: 15 },
    );
  });

  it("without contentCalls the text stays text and nothing runs", async () => {
    const result = await whole(QWEN, { repairs: coreRepairs });
    expect(result.calls).toEqual([]);
    expect(result.ran).toEqual([]);
  });
});
