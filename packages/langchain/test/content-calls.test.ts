import { type AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { gemma4 } from "@toolcall/gemma-recovery";
import { qwen3Coder } from "@toolcall/model-formats";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  GEMMA_CONTENT_CALL as GEMMA,
  QWEN_CONTENT_CALL as QWEN,
  QWEN_CODER_TEMPLATE,
  serveContentAnswers,
} from "../../core/test/fake-providers/vllm-answers.js";
import { coreRepairs, ToolCallRepairer, type ToolcallReport, withSafeToolCalls } from "../src/index.js";
import { merged } from "./merged-message.js";
import { quietLangChain } from "./quiet-langchain.js";

// withSafeToolCalls({ contentCalls }) with the real @langchain/openai ChatOpenAI against a loopback server answering
// as vLLM does when its tool parser leaves the model's native calls in `content`: Qwen3-Coder XML (a look-alike of
// the text the model writes) and Gemma 4 native calls (recorded vLLM traffic, @toolcall/gemma-recovery's fixture).

const server = serveContentAnswers();
beforeAll(() => quietLangChain());

const weather = tool(async () => "sunny", {
  name: "get_weather",
  schema: z.object({ city: z.string(), days: z.number().int().optional() }),
});
const chat = () =>
  new ChatOpenAI({ model: "m", apiKey: "test", maxRetries: 0, configuration: { baseURL: server.baseURL } });
const question = [new HumanMessage("Weather?")];

const calls = (message: BaseMessage) =>
  ((message as AIMessage).tool_calls ?? []).map(({ name, args }) => ({ name, args }));

describe("withSafeToolCalls({ contentCalls }) with ChatOpenAI", () => {
  it("recovers a Qwen3-Coder call and the recorded Gemma 4 call, invoked and streamed, and reports them", async () => {
    const reports: ToolcallReport[] = [];
    const model = withSafeToolCalls(chat(), {
      repairs: coreRepairs,
      contentCalls: [qwen3Coder, gemma4],
      onReport: (report) => reports.push(report),
    }).bindTools([weather]);
    for (const [text, name, syntax] of [
      [QWEN, "get_weather", "qwen3-coder"],
      [GEMMA, "patch", "gemma4"],
    ] as const) {
      server.answerWith(text, 4);
      reports.length = 0;
      const whole = await model.invoke(question);
      expect(calls(whole).map((call) => call.name)).toEqual([name]);
      expect(whole.response_metadata.toolcall).toMatchObject({
        calls: [{ name, status: "recovered", repairs: ["content-call"], usable: true, syntax }],
      });
      const streamed = await merged(await model.stream(question));
      expect(calls(streamed)).toEqual(calls(whole));
      expect(streamed.text).toBe(whole.text);
      expect(reports).toHaveLength(2);
      // Each answer's call gets a fresh id from its syntax; the rest of the report is the same.
      const withoutIds = (report: ToolcallReport | undefined) =>
        report?.calls?.map(({ id: _id, ...rest }) => rest);
      expect(withoutIds(reports[1])).toEqual(withoutIds(reports[0]));
    }
  });

  it("types the recovered values by the bound tool's schema", async () => {
    server.answerWith(QWEN, 5);
    const model = withSafeToolCalls(chat(), { contentCalls: [qwen3Coder] }).bindTools([weather]);
    expect(calls(await model.invoke(question))).toEqual([
      { name: "get_weather", args: { city: "Paris", days: 3 } },
    ]);
  });

  it("a stream cut anywhere gives the whole answer's calls and text", async () => {
    const model = withSafeToolCalls(chat(), { contentCalls: [qwen3Coder] }).bindTools([weather]);
    server.answerWith(QWEN, 1000);
    const whole = await model.invoke(question);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 30 }), async (piece) => {
        server.answerWith(QWEN, piece);
        const streamed = await merged(await model.stream(question));
        expect(calls(streamed)).toEqual(calls(whole));
        expect(streamed.text).toBe(whole.text);
      }),
      { numRuns: 12 },
    );
  });

  it('"auto" reads the syntax a real chat template renders; a template it cannot name is refused', async () => {
    server.answerWith(QWEN, 5);
    const model = withSafeToolCalls(chat(), { contentCalls: "auto", chatTemplate: QWEN_CODER_TEMPLATE });
    expect(calls(await model.invoke(question)).map((call) => call.name)).toEqual(["get_weather"]);
    expect(() => withSafeToolCalls(chat(), { contentCalls: "auto" })).toThrow(/chat_template_missing/);
  });

  it("without contentCalls the text stays text", async () => {
    server.answerWith(QWEN, 5);
    const message = await withSafeToolCalls(chat(), { repairs: coreRepairs }).invoke(question);
    expect(calls(message)).toEqual([]);
    expect(message.text).toBe(QWEN);
  });
});

describe("ToolCallRepairer({ contentCalls }) in a pipeline", () => {
  it("reads the calls ChatOpenAI's answer left in its text, invoked and streamed", async () => {
    server.answerWith(QWEN, 3);
    const chain = chat().pipe(
      new ToolCallRepairer({ contentCalls: "auto", chatTemplate: QWEN_CODER_TEMPLATE }),
    );
    const whole = await chain.invoke(question);
    expect(calls(whole).map((call) => call.name)).toEqual(["get_weather"]);
    expect(calls(await merged(await chain.stream(question)))).toEqual(calls(whole));
  });
});
