import { type AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AnswerServer,
  mergedCallsAnswer,
  startAnswerServer,
} from "../../core/test/fake-providers/vllm-answers.js";
import { coreRepairs, type ToolcallReport, withSafeToolCalls } from "../src/index.js";
import { merged } from "./merged-message.js";
import { quietLangChain } from "./quiet-langchain.js";

// `splitMergedCalls` with the real ChatOpenAI against a loopback server answering as a gateway that merged parallel
// calls into one call's arguments (`{…}{…}`, LiteLLM sessions in the reports issue 33 collects): invoked and
// streamed (fragments cut anywhere), the message holds the same calls with the same fresh ids.

let answer: { calls: string[]; cuts: number[] } = { calls: [], cuts: [] };
let server: AnswerServer;
beforeAll(async () => {
  quietLangChain();
  server = await startAnswerServer((body) => mergedCallsAnswer({ ...answer, stream: body.stream }));
});
afterAll(() => server.close());

const model = () =>
  withSafeToolCalls(
    new ChatOpenAI({ model: "m", apiKey: "test", maxRetries: 0, configuration: { baseURL: server.baseURL } }),
    {
      repairs: coreRepairs,
      splitMergedCalls: true,
    },
  );
const question = [new HumanMessage("Search.")];

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
