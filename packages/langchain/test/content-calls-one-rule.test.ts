import { type AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { SYNTAX_IDS, syntaxById } from "@toolcall/model-formats";
import { beforeAll, describe } from "vitest";
import { z } from "zod";
import { itReadsByOneRule, serveContentAnswers } from "../../core/test/fake-providers/vllm-answers.js";
import { withSafeToolCalls } from "../src/index.js";
import { merged } from "./merged-message.js";
import { quietLangChain } from "./quiet-langchain.js";

// One content-call rule at the LangChain door: invoke and stream (pieces of every size from 1 to 7) give the same
// text and calls, with the real ChatOpenAI against a loopback server answering as vLLM does.

const server = serveContentAnswers();
beforeAll(() => quietLangChain());

const weather = tool(async () => "sunny", { name: "get_weather", schema: z.object({ city: z.string() }) });
const chat = () =>
  new ChatOpenAI({ model: "m", apiKey: "test", maxRetries: 0, configuration: { baseURL: server.baseURL } });
const question = [new HumanMessage("Weather?")];
const calls = (message: BaseMessage) =>
  ((message as AIMessage).tool_calls ?? []).map(({ name, args }) => ({ name, arguments: args }));

/** The text and calls of an invoked answer, or of a streamed one cut in pieces of `piece` characters. */
async function read(syntax: string, text: string, piece?: number) {
  const found = syntaxById(syntax);
  if (found === undefined) throw new Error(syntax);
  const model = withSafeToolCalls(chat(), { contentCalls: [found] }).bindTools([weather]);
  server.answerWith(text, piece);
  const message =
    piece === undefined ? await model.invoke(question) : await merged(await model.stream(question));
  return { content: message.text, calls: calls(message) };
}

describe("withSafeToolCalls({ contentCalls }): invoke and stream read content calls by one rule", () => {
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
