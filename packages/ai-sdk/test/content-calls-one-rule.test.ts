import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { SYNTAX_IDS, syntaxById } from "@toolcall/model-formats";
import { generateText, jsonSchema, streamText, tool, wrapLanguageModel } from "ai";
import { describe } from "vitest";
import { itReadsByOneRule, serveContentAnswers } from "../../core/test/fake-providers/vllm-answers.js";
import { toolcallMiddleware } from "../src/index.js";

// One content-call rule at the AI SDK door: generateText and streamText (pieces of every size from 1 to 7) give the
// same text and calls, with the real `ai` and @ai-sdk/openai-compatible against a loopback server answering as vLLM.

const server = serveContentAnswers();

const tools = {
  get_weather: tool({
    inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } } }),
  }),
};

/** The text and calls of a generated answer, or of a streamed one cut in pieces of `piece` characters. */
async function read(syntax: string, text: string, piece?: number) {
  const found = syntaxById(syntax);
  if (found === undefined) throw new Error(syntax);
  const model = wrapLanguageModel({
    model: createOpenAICompatible({ name: "vllm", baseURL: server.baseURL }).chatModel("m"),
    middleware: toolcallMiddleware({ contentCalls: [found] }),
  });
  server.answerWith(text, piece);
  if (piece === undefined) {
    const generated = await generateText({ model, tools, prompt: "Weather?" });
    return {
      content: generated.text,
      calls: generated.toolCalls.map((call) => ({ name: call.toolName, arguments: call.input })),
    };
  }
  const result = streamText({ model, tools, prompt: "Weather?" });
  let content = "";
  for await (const part of result.fullStream) if (part.type === "text-delta") content += part.text;
  const calls = (await result.toolCalls).map((call) => ({ name: call.toolName, arguments: call.input }));
  return { content, calls };
}

describe("toolcallMiddleware({ contentCalls }): generated and streamed answers read content calls by one rule", () => {
  itReadsByOneRule({
    read,
    families: {
      ids: SYNTAX_IDS,
      byId: syntaxById,
      prefixes: ["<|channel>thought\n<channel|>"],
      pieces: [1, 7],
    },
  });
});
