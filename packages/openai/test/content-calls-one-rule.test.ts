import { SYNTAX_IDS, syntaxById } from "@toolcall/model-formats";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { itReadsByOneRule, serveContentAnswers } from "../../core/test/fake-providers/vllm-answers.js";
import { guardFetch } from "../src/index.js";

// One content-call rule at the OpenAI door: a whole answer and its stream (cut in pieces of every size from 1 to 7)
// give the same content and calls, through the real SDK against a loopback server answering as vLLM does.

const server = serveContentAnswers();

const tools = [
  {
    type: "function" as const,
    function: {
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" } } },
    },
  },
];
const messages = [{ role: "user" as const, content: "Weather?" }];

/** A client reading content calls in the syntaxes named (ids joined by `+`, in order). */
function client(syntax: string): OpenAI {
  const found = syntax.split("+").map((id) => {
    const one = syntaxById(id);
    if (one === undefined) throw new Error(id);
    return one;
  });
  const fetch = guardFetch(globalThis.fetch, { contentCalls: found });
  return new OpenAI({ apiKey: "none", baseURL: server.baseURL, fetch, maxRetries: 0 });
}

/** The content and calls of a whole answer, or of a stream cut in pieces of `piece` characters. */
async function read(syntax: string, text: string, piece?: number) {
  server.answerWith(text, piece);
  if (piece === undefined) {
    const data = await client(syntax).chat.completions.create({ model: "m", messages, tools });
    const message = data.choices[0]?.message;
    return {
      content: message?.content ?? "",
      calls: (message?.tool_calls ?? []).map((call) =>
        call.type === "function"
          ? { name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown }
          : { name: `custom ${call.custom.name}`, arguments: call.custom.input as unknown },
      ),
    };
  }
  const stream = await client(syntax).chat.completions.create({ model: "m", messages, tools, stream: true });
  let content = "";
  const calls: { name: string; arguments: string }[] = [];
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta;
    content += delta?.content ?? "";
    for (const call of delta?.tool_calls ?? []) {
      calls[call.index] ??= { name: "", arguments: "" };
      const into = calls[call.index] as { name: string; arguments: string };
      into.name += call.function?.name ?? "";
      into.arguments += call.function?.arguments ?? "";
    }
  }
  return {
    content,
    calls: calls.map((call) => ({ name: call.name, arguments: JSON.parse(call.arguments) as unknown })),
  };
}

describe("guardFetch({ contentCalls }): whole answers and streams read content calls by one rule", () => {
  itReadsByOneRule({
    read,
    families: {
      ids: SYNTAX_IDS,
      byId: syntaxById,
      prefixes: ["Sure. ", "<|channel>thought\n<channel|>"],
      pieces: [1, 3, 7],
    },
  });
  it("several syntaxes: a stream gives calls in the order they were written, however it is cut", async () => {
    const text =
      'First <tool_call>\n{"name": "a", "arguments": {}}\n</tool_call> then <|tool_call>call:b{x:1}<tool_call|> and ' +
      '<tool_call>\n{"name": "c", "arguments": {}}\n</tool_call>';
    const whole = await read("gemma4+hermes", text, text.length);
    expect(whole.calls.map((call) => ("name" in call ? call.name : ""))).toEqual(["a", "b", "c"]);
    for (const piece of [1, 3, 7])
      expect(await read("gemma4+hermes", text, piece), `pieces of ${piece}`).toEqual(whole);
  });
});
