import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import * as latest from "ai";
import * as first from "ai-6.0.0";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type ToolcallCallReport, toolcallMiddleware, toolcallRepair } from "../src/index.js";

// Calls core finds unusable (`normalizeAnswerArguments` → `usable: false`) whose text the SDK's own JSON parser still
// reads as an object: nesting deeper than core's limit (the SDK's deep copies of its response messages overflow the
// stack on it, with no middleware the tool even runs first), a raw sentinel left by an earlier stage, and nothing
// before a length stop (the SDK validates `{}` in its place). The real @ai-sdk/openai-compatible model reads the
// answers from a `fetch` standing where the server would be; the tool takes any object (a validating schema, as zod's:
// the package hands such a call over as the model's text, which no object schema accepts), so only the package stands
// between such a call and the tool.

const SDKS = { "6.0.325": latest, "6.0.0": first as unknown as typeof latest };

const DEEP_OBJECTS = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
const DEEP_ARRAYS = `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
const CASES = {
  "objects nested 100 000 deep": { text: DEEP_OBJECTS, finish: "tool_calls", status: "invalid" },
  "arrays nested 100 000 deep": { text: DEEP_ARRAYS, finish: "tool_calls", status: "invalid" },
  "a raw sentinel in a fresh answer": {
    text: '{"_raw_arguments": "{\\"city\\": \\"Par"}',
    finish: "tool_calls",
    status: "object",
  },
  "no arguments before a length stop": { text: "", finish: "length", status: "truncated" },
} as const;

const base = { id: "chatcmpl-unusable", created: 0, model: "m" };

function answerOf(text: string, finish: string, stream: boolean): string {
  const call = { id: "call_1", type: "function", function: { name: "lookup", arguments: text } };
  if (!stream)
    return JSON.stringify({
      ...base,
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: null, tool_calls: [call] },
          finish_reason: finish,
        },
      ],
    });
  const frame = (delta: unknown, finishReason: string | null) =>
    `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
  return [
    frame({ role: "assistant", content: null }, null),
    frame({ tool_calls: [{ index: 0, ...call, function: { name: "lookup", arguments: "" } }] }, null),
    ...(text === "" ? [] : [frame({ tool_calls: [{ index: 0, function: { arguments: text } }] }, null)]),
    frame({}, finish),
    "data: [DONE]\n\n",
  ].join("");
}

const textAnswer = (stream: boolean) =>
  stream
    ? `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta: { role: "assistant", content: "done" }, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`
    : JSON.stringify({
        ...base,
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content: "done" }, finish_reason: "stop" }],
      });

async function run(sdk: typeof latest, kind: "generate" | "stream", text: string, finish: string) {
  const stream = kind === "stream";
  const requests: Array<{
    messages: Array<{ role: string; tool_calls?: Array<{ function: { arguments: string } }> }>;
  }> = [];
  const provider = createOpenAICompatible({
    name: "loopback",
    baseURL: "http://127.0.0.1:9/v1",
    fetch: async (_url, init) => {
      requests.push(JSON.parse(String(init?.body)));
      const body = requests.length === 1 ? answerOf(text, finish, stream) : textAnswer(stream);
      return new Response(body, {
        headers: { "content-type": stream ? "text/event-stream" : "application/json" },
      });
    },
  });
  const ran: unknown[] = [];
  const settings = {
    model: sdk.wrapLanguageModel({ model: provider.chatModel("m"), middleware: toolcallMiddleware() }),
    prompt: "Look it up.",
    tools: {
      lookup: sdk.tool({
        inputSchema: z.looseObject({}),
        execute: async (input: unknown) => {
          ran.push(input);
          return "found";
        },
      }),
    },
    stopWhen: sdk.stepCountIs(2),
    experimental_repairToolCall: toolcallRepair(),
  };
  let content: Array<{ type: string; invalid?: boolean; input?: unknown; providerMetadata?: unknown }>;
  if (kind === "generate") content = (await sdk.generateText(settings)).steps[0]?.content ?? [];
  else {
    let failure: unknown;
    const result = sdk.streamText({
      ...settings,
      onError: ({ error }) => {
        failure = error;
      },
    });
    await result.consumeStream();
    if (failure !== undefined) throw failure;
    content = (await result.steps)[0]?.content ?? [];
  }
  const replayed = requests[1]?.messages.find((message) => message.role === "assistant")?.tool_calls?.[0]
    ?.function.arguments;
  return { ran, content, replayed };
}

describe.each(Object.entries(SDKS))(
  "ai %s: calls the SDK would read as runnable but core does not",
  (_, sdk) => {
    describe.each(["generate", "stream"] as const)("%sText", (kind) => {
      it.each(Object.entries(CASES))(
        "%s: a tool error, the model's text kept, no crash",
        async (_name, scenario) => {
          const { ran, content, replayed } = await run(sdk, kind, scenario.text, scenario.finish);
          expect(ran.length).toBe(0);
          const call = content.find((part) => part.type === "tool-call");
          expect(call?.invalid).toBe(true);
          expect(call?.input === scenario.text).toBe(true);
          expect((call?.providerMetadata as { toolcall?: ToolcallCallReport })?.toolcall).toMatchObject({
            usable: false,
            status: scenario.status,
            raw: scenario.text,
          });
          expect(content.some((part) => part.type === "tool-error")).toBe(true);
          // The next request replays the call as JSON object text a strict provider takes, never the deep text: `{}` or
          // a raw sentinel holding the model's text as a string.
          const stored = JSON.parse(String(replayed));
          expect(Object.keys(stored).filter((key) => key !== "_raw_arguments")).toEqual([]);
          expect(["string", "undefined"]).toContain(typeof stored._raw_arguments);
        },
      );

      it("a clean call still runs", async () => {
        const { ran, content } = await run(sdk, kind, '{"city": "Paris"}', "tool_calls");
        expect(ran).toEqual([{ city: "Paris" }]);
        expect(content.find((part) => part.type === "tool-call")?.invalid).toBeUndefined();
      });
    });
  },
);
