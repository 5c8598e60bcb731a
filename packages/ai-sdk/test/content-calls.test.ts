import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { coreRepairs } from "@toolcall/core";
import { gemma4 } from "@toolcall/gemma-recovery";
import { qwen3Coder } from "@toolcall/model-formats";
import { generateText, jsonSchema, streamText, tool, wrapLanguageModel } from "ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  GEMMA_CONTENT_CALL as GEMMA,
  QWEN_CONTENT_CALL as QWEN,
  QWEN_CODER_TEMPLATE,
  serveContentAnswers,
} from "../../core/test/fake-providers/vllm-answers.js";
import { type ToolcallReport, toolcallMiddleware } from "../src/index.js";

// The middleware's `contentCalls` with the real `ai` and `@ai-sdk/openai-compatible` against a loopback server
// answering as vLLM does when its tool parser leaves the model's native calls in `content`: Qwen3-Coder XML (a
// look-alike of the text the model writes) and Gemma 4 native calls (recorded vLLM traffic, @toolcall/gemma-recovery's
// fixture). Whole answers and streams cut anywhere give the same calls, run by the SDK.

const server = serveContentAnswers();

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
    model: createOpenAICompatible({ name: "vllm", baseURL: server.baseURL }).chatModel("m"),
    middleware: toolcallMiddleware(options),
  });
}

async function whole(text: string, options: Parameters<typeof toolcallMiddleware>[0]) {
  server.answerWith(text, 5);
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
  server.answerWith(text, piece);
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
    const result = await whole(QWEN, { contentCalls: "auto", chatTemplate: QWEN_CODER_TEMPLATE });
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
