import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentAnswer, ONE_RULE_CASES } from "../../../packages/core/test/fake-providers/vllm-answers.js";
import { CONTENT_CALL_EXTRACTORS } from "../src/index.js";
import { startProxy } from "./start-proxy.js";
import { type FakeUpstream, startUpstream } from "./upstream.js";

// One content-call rule through the proxy: a whole answer and its stream (content deltas of every size from 1 to 7)
// give the same content and calls, through the real openai SDK, the proxy and a loopback upstream answering as vLLM
// does when its tool parser leaves the model's native call in content.

let answer = { text: "", piece: 5 };
let upstream: FakeUpstream;
beforeAll(async () => {
  upstream = await startUpstream((request, response) => {
    const { contentType, body } = contentAnswer({
      ...answer,
      stream: (request.json as { stream?: boolean }).stream,
    });
    response.writeHead(200, { "content-type": contentType });
    response.end(body);
  });
});
afterAll(async () => {
  await upstream.close();
});

const TOOLS = [
  {
    type: "function" as const,
    function: {
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" } } },
    },
  },
];

describe("--content-calls: whole answers and streams read content calls by one rule", () => {
  for (const testCase of ONE_RULE_CASES)
    it(testCase.name, async () => {
      const extractor = CONTENT_CALL_EXTRACTORS[testCase.syntax];
      if (extractor === undefined) throw new Error(testCase.syntax);
      const proxy = await startProxy({ upstream: upstream.url, contentCalls: [extractor] });
      try {
        const client = new OpenAI({ baseURL: proxy.baseURL, apiKey: "k", maxRetries: 0 });
        const calls = (message: OpenAI.ChatCompletionMessage | undefined) =>
          (message?.tool_calls ?? []).map((call) =>
            "function" in call
              ? { name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown }
              : call,
          );
        answer = { text: testCase.text, piece: 5 };
        const completion = await client.chat.completions.create({ model: "m", messages: [], tools: TOOLS });
        const message = completion.choices[0]?.message;
        const whole = { content: message?.content ?? "", calls: calls(message) };
        expect(whole).toEqual({ content: testCase.content, calls: testCase.calls });
        for (let piece = 1; piece <= 7; piece++) {
          answer = { text: testCase.text, piece };
          const stream = client.chat.completions.stream({ model: "m", messages: [], tools: TOOLS });
          const final = (await stream.finalChatCompletion()).choices[0]?.message;
          expect({ content: final?.content ?? "", calls: calls(final) }, `pieces of ${piece}`).toEqual(whole);
        }
      } finally {
        await proxy.close();
      }
    });
});
