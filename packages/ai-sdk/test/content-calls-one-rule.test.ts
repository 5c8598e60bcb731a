import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { syntaxById } from "@toolcall/model-formats";
import { generateText, jsonSchema, streamText, tool, wrapLanguageModel } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AnswerServer,
  contentAnswer,
  ONE_RULE_CASES,
  startAnswerServer,
} from "../../core/test/fake-providers/vllm-answers.js";
import { toolcallMiddleware } from "../src/index.js";

// One content-call rule at the AI SDK door: generateText and streamText (pieces of every size from 1 to 7) give the
// same text and calls, with the real `ai` and @ai-sdk/openai-compatible against a loopback server answering as vLLM.

let answer = { text: "", piece: 5 };
let server: AnswerServer;
beforeAll(async () => {
  server = await startAnswerServer((body) => contentAnswer({ ...answer, stream: body.stream }));
});
afterAll(() => server.close());

const tools = {
  get_weather: tool({
    inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } } }),
  }),
};

describe("toolcallMiddleware({ contentCalls }): generated and streamed answers read content calls by one rule", () => {
  for (const testCase of ONE_RULE_CASES)
    it(testCase.name, async () => {
      const syntax = syntaxById(testCase.syntax);
      if (syntax === undefined) throw new Error(testCase.syntax);
      const model = wrapLanguageModel({
        model: createOpenAICompatible({ name: "vllm", baseURL: server.baseURL }).chatModel("m"),
        middleware: toolcallMiddleware({ contentCalls: [syntax] }),
      });
      answer = { text: testCase.text, piece: 5 };
      const generated = await generateText({ model, tools, prompt: "Weather?" });
      const whole = {
        content: generated.text,
        calls: generated.toolCalls.map((call) => ({ name: call.toolName, arguments: call.input })),
      };
      expect(whole).toEqual({ content: testCase.content, calls: testCase.calls });
      for (let piece = 1; piece <= 7; piece++) {
        answer = { text: testCase.text, piece };
        const result = streamText({ model, tools, prompt: "Weather?" });
        let content = "";
        for await (const part of result.fullStream) if (part.type === "text-delta") content += part.text;
        const streamedCalls = (await result.toolCalls).map((call) => ({
          name: call.toolName,
          arguments: call.input,
        }));
        expect({ content, calls: streamedCalls }, `pieces of ${piece}`).toEqual(whole);
      }
    });
});
