import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type AIMessage,
  type AIMessageChunk,
  type BaseMessage,
  HumanMessage,
} from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreRepairs, type ToolcallReport, withSafeToolCalls } from "../src/index.js";
import { quietLangChain } from "./quiet-langchain.js";

// `splitMergedCalls` with the real ChatOpenAI against a loopback server answering as a gateway that merged parallel
// calls into one call's arguments (`{…}{…}`, LiteLLM sessions in the reports issue 33 collects): invoked and
// streamed (fragments cut anywhere), the message holds the same calls with the same fresh ids.

const frame = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

function pieces(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  return [...points, text.length].map((end, k, ends) =>
    text.slice(k === 0 ? 0 : (ends[k - 1] as number), end),
  );
}

let answer: { calls: string[]; cuts: number[] } = { calls: [], cuts: [] };
let server: Server;
let baseURL = "";
beforeAll(async () => {
  quietLangChain();
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      if ((JSON.parse(body) as { stream?: boolean }).stream) {
        response.writeHead(200, { "content-type": "text/event-stream" });
        let out = frame({ role: "assistant", content: "" });
        answer.calls.forEach((text, index) => {
          out += frame({
            tool_calls: [
              { index, id: `call_${index}`, type: "function", function: { name: "search", arguments: "" } },
            ],
          });
          for (const piece of pieces(text, answer.cuts))
            out += frame({ tool_calls: [{ index, function: { arguments: piece } }] });
        });
        response.end(`${out}${frame({}, "tool_calls")}data: [DONE]\n\n`);
        return;
      }
      const tool_calls = answer.calls.map((text, index) => ({
        id: `call_${index}`,
        type: "function",
        function: { name: "search", arguments: text },
      }));
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: "c",
          object: "chat.completion",
          created: 1,
          model: "m",
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: null, tool_calls },
              finish_reason: "tool_calls",
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const model = () =>
  withSafeToolCalls(
    new ChatOpenAI({ model: "m", apiKey: "test", maxRetries: 0, configuration: { baseURL } }),
    {
      repairs: coreRepairs,
      splitMergedCalls: true,
    },
  );
const question = [new HumanMessage("Search.")];

async function merged(stream: AsyncIterable<BaseMessage>): Promise<AIMessageChunk> {
  let full: AIMessageChunk | undefined;
  for await (const chunk of stream)
    full = full === undefined ? (chunk as AIMessageChunk) : full.concat(chunk as AIMessageChunk);
  return full as AIMessageChunk;
}

const calls = (message: BaseMessage) =>
  ((message as AIMessage).tool_calls ?? []).map(({ id, name, args }) => ({ id, name, args }));

describe("withSafeToolCalls({ splitMergedCalls }) with ChatOpenAI", () => {
  it("splits merged calls, invoked and streamed alike, and reports the split", async () => {
    answer = { calls: ['{"query":"first"}{"query":"second"}', '{"query":"third"}'], cuts: [3, 19] };
    const whole = await model().invoke(question);
    expect(calls(whole)).toEqual([
      { id: "call_0", name: "search", args: { query: "first" } },
      { id: "call_0_2", name: "search", args: { query: "second" } },
      { id: "call_1", name: "search", args: { query: "third" } },
    ]);
    expect((whole.response_metadata.toolcall as ToolcallReport).calls?.[0]).toMatchObject({
      id: "call_0",
      status: "repaired",
      repairs: ["call_split"],
      split: ["call_0", "call_0_2"],
    });
    expect(calls(await merged(await model().stream(question)))).toEqual(calls(whole));
  });

  it("whole ≡ stream for any merged calls and any cut of the fragments", async () => {
    const object = fc.dictionary(fc.constantFrom("query", "n"), fc.oneof(fc.integer(), fc.string()), {
      minKeys: 1,
      maxKeys: 2,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(object, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 2 }),
        fc.array(fc.nat(60), { maxLength: 4 }),
        async (groups, cuts) => {
          answer = { calls: groups.map((objects) => objects.map((o) => JSON.stringify(o)).join("")), cuts };
          const whole = await model().invoke(question);
          const streamed = await merged(await model().stream(question));
          expect(calls(streamed)).toEqual(calls(whole));
        },
      ),
      // First: a fragment ending between two equal objects of `{A}{A}{B}` (no unique split: one call as it came).
      { numRuns: 30, examples: [[[[{ n: 1 }, { n: 1 }, { query: "x" }]], [7, 14]]] },
    );
  });
});
