import { type AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { syntaxById } from "@toolcall/model-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type AnswerServer,
  contentAnswer,
  ONE_RULE_CASES,
  startAnswerServer,
} from "../../core/test/fake-providers/vllm-answers.js";
import { withSafeToolCalls } from "../src/index.js";
import { merged } from "./merged-message.js";
import { quietLangChain } from "./quiet-langchain.js";

// One content-call rule at the LangChain door: invoke and stream (pieces of every size from 1 to 7) give the same
// text and calls, with the real ChatOpenAI against a loopback server answering as vLLM does.

let answer = { text: "", piece: 5 };
let server: AnswerServer;
beforeAll(async () => {
  quietLangChain();
  server = await startAnswerServer((body) => contentAnswer({ ...answer, stream: body.stream }));
});
afterAll(() => server.close());

const weather = tool(async () => "sunny", { name: "get_weather", schema: z.object({ city: z.string() }) });
const chat = () =>
  new ChatOpenAI({ model: "m", apiKey: "test", maxRetries: 0, configuration: { baseURL: server.baseURL } });
const question = [new HumanMessage("Weather?")];
const calls = (message: BaseMessage) =>
  ((message as AIMessage).tool_calls ?? []).map(({ name, args }) => ({ name, arguments: args }));

describe("withSafeToolCalls({ contentCalls }): invoke and stream read content calls by one rule", () => {
  for (const testCase of ONE_RULE_CASES)
    it(testCase.name, async () => {
      const syntax = syntaxById(testCase.syntax);
      if (syntax === undefined) throw new Error(testCase.syntax);
      const model = withSafeToolCalls(chat(), { contentCalls: [syntax] }).bindTools([weather]);
      answer = { text: testCase.text, piece: 5 };
      const whole = await model.invoke(question);
      expect({ content: whole.text, calls: calls(whole) }).toEqual({
        content: testCase.content,
        calls: testCase.calls,
      });
      for (let piece = 1; piece <= 7; piece++) {
        answer = { text: testCase.text, piece };
        const streamed = await merged(await model.stream(question));
        expect({ content: streamed.text, calls: calls(streamed) }, `pieces of ${piece}`).toEqual({
          content: whole.text,
          calls: calls(whole),
        });
      }
    });
});
