import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { coreRepairs } from "@toolcall/core";
import { gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
import { generateText, jsonSchema, streamText, tool, wrapLanguageModel } from "ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toolcallMiddleware, toolcallRepair } from "../src/index.js";

// The same answer, whole (one chat.completion body) and streamed (chat.completion.chunk events whose argument
// fragments and bytes are cut anywhere), parsed by the real @ai-sdk/openai-compatible model and run by generateText
// and streamText through the middleware: the calls the SDK ends with are the same.

const repairs = [...coreRepairs, gemmaQuoteMarkers];

const payload = fc.oneof(
  fc.constantFrom(
    '{"location": "Paris"}',
    "",
    "null",
    "[1, 2]",
    "{'location': 'Paris'}",
    '```json\n{"location": "Paris"}\n```',
    '{"location": "<|\\"|"Paris<|\\""}',
    '{"location": "Par',
    '{"location": "Paris"}</tool_call>',
    // Calls merged into one (cumulative deltas, a gateway merging parallel calls): split with splitMergedCalls.
    '{"location": "Paris"}{"location": "Rome"}',
    '{"location":"Oslo"} {"location":"Rome"}{"location":"Lima"}',
  ),
  fc.string({ maxLength: 12 }),
);

const scenario = fc.record({
  calls: fc.array(fc.record({ args: payload, cuts: fc.array(fc.nat(), { maxLength: 3 }) }), {
    minLength: 1,
    maxLength: 2,
  }),
  finish: fc.constantFrom("tool_calls", "length"),
  byteCuts: fc.array(fc.nat(), { maxLength: 6 }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

const base = { id: "chatcmpl-split", created: 1770764938, model: "qwen3-max" };

function wholeBody(s: Scenario): string {
  return JSON.stringify({
    ...base,
    object: "chat.completion",
    choices: [
      {
        index: 0,
        finish_reason: s.finish,
        message: {
          role: "assistant",
          content: "",
          tool_calls: s.calls.map((call, i) => ({
            id: `call_${i}`,
            type: "function",
            function: { name: "weather", arguments: call.args },
          })),
        },
      },
    ],
  });
}

function pieces(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  return [...points, text.length].map((end, k, ends) =>
    text.slice(k === 0 ? 0 : (ends[k - 1] as number), end),
  );
}

function streamBody(s: Scenario): string {
  const chunk = (delta: unknown, finish: string | null = null) => ({
    ...base,
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const frames = [
    chunk({ role: "assistant", content: "" }),
    ...s.calls.flatMap((call, i) => [
      chunk({
        tool_calls: [
          { index: i, id: `call_${i}`, type: "function", function: { name: "weather", arguments: "" } },
        ],
      }),
      ...pieces(call.args, call.cuts).map((piece) =>
        chunk({ tool_calls: [{ index: i, function: { arguments: piece } }] }),
      ),
    ]),
    chunk({}, s.finish),
  ];
  return `${frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join("")}data: [DONE]\n\n`;
}

/** A fetch that answers with `body`, its bytes cut at `cuts`. */
function answering(body: string, sse: boolean, cuts: readonly number[]): typeof fetch {
  return async () => {
    const bytes = new TextEncoder().encode(body);
    const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        let from = 0;
        for (const point of [...points, bytes.length]) {
          if (point > from) controller.enqueue(bytes.slice(from, point));
          from = point;
        }
        controller.close();
      },
    });
    return new Response(stream, {
      headers: { "content-type": sse ? "text/event-stream" : "application/json" },
    });
  };
}

function modelFor(fetcher: typeof fetch) {
  const provider = createOpenAICompatible({
    name: "dashscope",
    baseURL: "http://127.0.0.1:9/v1",
    fetch: fetcher,
  });
  return wrapLanguageModel({
    model: provider.chatModel("qwen3-max"),
    middleware: toolcallMiddleware({ repairs, splitMergedCalls: true }),
  });
}

const settings = {
  prompt: "Weather?",
  tools: {
    weather: tool({
      inputSchema: jsonSchema<{ location: string }>({
        type: "object",
        properties: { location: { type: "string" } },
        required: ["location"],
      }),
    }),
  },
  experimental_repairToolCall: toolcallRepair({ repairs }),
};

type Call = {
  type: string;
  toolCallId?: string;
  input?: unknown;
  invalid?: boolean;
  providerMetadata?: unknown;
};
const callsOf = (content: readonly Call[]) =>
  content
    .filter((part) => part.type === "tool-call")
    .map(({ toolCallId, input, invalid, providerMetadata }) => ({
      toolCallId,
      input,
      invalid,
      providerMetadata,
    }));

describe("whole and streamed answers through the real provider", () => {
  it("give the same calls for any split of the stream", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const whole = await generateText({
          ...settings,
          model: modelFor(answering(wholeBody(s), false, [])),
        });
        const streamed = streamText({
          ...settings,
          model: modelFor(answering(streamBody(s), true, s.byteCuts)),
          onError: () => {},
        });
        const steps = await streamed.steps;
        expect(callsOf((steps[0]?.content ?? []) as Call[])).toEqual(
          callsOf(whole.steps[0]?.content as Call[]),
        );
      }),
      { numRuns: 60 },
    );
  });
});

describe("merged calls (splitMergedCalls) through the real provider", () => {
  it("become one call per object, whole and streamed, with the same fresh ids", async () => {
    const s: Scenario = {
      calls: [{ args: '{"location": "Paris"}{"location": "Rome"}', cuts: [3, 25] }],
      finish: "tool_calls",
      byteCuts: [40, 200],
    };
    const whole = await generateText({ ...settings, model: modelFor(answering(wholeBody(s), false, [])) });
    const streamed = streamText({ ...settings, model: modelFor(answering(streamBody(s), true, s.byteCuts)) });
    const steps = await streamed.steps;
    const expected = [
      { toolCallId: "call_0", input: { location: "Paris" } },
      { toolCallId: "call_0_2", input: { location: "Rome" } },
    ];
    expect(callsOf(whole.steps[0]?.content as Call[])).toMatchObject(expected);
    expect(callsOf((steps[0]?.content ?? []) as Call[])).toMatchObject(expected);
    expect(callsOf(whole.steps[0]?.content as Call[])[0]?.providerMetadata).toMatchObject({
      toolcall: { status: "repaired", repairs: ["call_split"], split: ["call_0", "call_0_2"] },
    });
  });
});
