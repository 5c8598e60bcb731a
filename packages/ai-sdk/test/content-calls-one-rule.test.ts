import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { SYNTAX_IDS, syntaxById } from "@toolcall/model-formats";
import { generateText, jsonSchema, streamText, tool, wrapLanguageModel } from "ai";
import { describe, expect, it } from "vitest";
import { ONE_RULE_CASES, serveContentAnswers } from "../../core/test/fake-providers/vllm-answers.js";
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
  for (const testCase of ONE_RULE_CASES)
    it(testCase.name, async () => {
      const whole = await read(testCase.syntax, testCase.text);
      expect(whole).toEqual({ content: testCase.content, calls: testCase.calls });
      for (let piece = 1; piece <= 7; piece++)
        expect(await read(testCase.syntax, testCase.text, piece), `pieces of ${piece}`).toEqual(whole);
    });

  it("every family's syntax: the call it writes, alone and after an empty Gemma 4 thought, alike whole and streamed", async () => {
    for (const id of SYNTAX_IDS) {
      const syntax = syntaxById(id);
      if (syntax === undefined) throw new Error(id);
      const call = syntax.encode([{ function: { name: "get_weather", arguments: '{"city": "Paris"}' } }]);
      for (const text of [call, `<|channel>thought\n<channel|>${call}`]) {
        const whole = await read(id, text);
        if (text === call)
          expect(
            whole.calls.map((found) => found.name),
            id,
          ).toEqual(["get_weather"]);
        for (const piece of [1, 7])
          expect(await read(id, text, piece), `${id} in pieces of ${piece}: ${JSON.stringify(text)}`).toEqual(
            whole,
          );
      }
    }
  });
});
