import { isDeepStrictEqual } from "node:util";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { describeConformance } from "@toolcall/conformance/vitest";
import type { ChatMessage, SanitizeOptions } from "@toolcall/core";
import { resolveCoreRepairs } from "@toolcall/core/conformance";
import type { RepairRule } from "@toolcall/core/kit";
import { gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
import { generateText, type ModelMessage, streamText, tool, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import {
  fromNeutralMessages,
  sanitizeModelMessages,
  type ToolcallCallReport,
  toNeutralMessages,
  toolcallMiddleware,
  toolcallRepair,
} from "../src/index.js";
import { decideStream } from "./stream-decisions.js";

// The suite through the AI SDK's shapes. decode: a model (the SDK's own MockLanguageModelV3, standing where a
// provider would be) answers one call whose input is the vector's text, through `wrapLanguageModel` with the
// middleware and `generateText` with the repair function; a vector whose input is not text (the SDK's model
// interface carries input as JSON text) is a call stored in a `ModelMessage` history instead, sanitized. sanitize:
// the neutral history as ModelMessages, through sanitizeModelMessages and back. accumulate: the deltas as a Chat
// Completions stream, parsed by the real @ai-sdk/openai-compatible model (through `fetch`), through the middleware
// and `streamText`. normalizeAnswer: a fresh answer from the model layer through the middleware, whole and streamed.

interface Options {
  repairs?: RepairRule[];
  finishReason?: string | null;
  maxDepth?: number;
  [key: string]: unknown;
}

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** The V3 finish reason a provider maps an OpenAI one to. */
function finishOf(reason: string | null | undefined) {
  switch (reason) {
    case "length":
      return { unified: "length" as const, raw: "length" };
    case "stop":
      return { unified: "stop" as const, raw: "stop" };
    case null:
    case undefined:
    case "tool_calls":
      return { unified: "tool-calls" as const, raw: "tool_calls" };
    default:
      return { unified: "other" as const, raw: reason };
  }
}

const decideOptions = (options: Options) => ({
  ...(options.repairs === undefined ? {} : { repairs: options.repairs }),
  ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
});

/** What R4 stores for a call's arguments: the input of the call in a sanitized history. */
function storedInput(input: unknown, options: Options) {
  const history: ModelMessage[] = [
    { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", toolName: "f", input }] },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "call_1", toolName: "f", output: { type: "text", value: "ok" } },
      ],
    },
  ];
  const { messages, changes } = sanitizeModelMessages(history, decideOptions(options));
  const part = ((messages[0]?.content ?? []) as Array<{ input?: unknown }>)[0];
  const change = changes.find(
    (entry) => entry.toolCallId === "call_1" && entry.rule.startsWith("arguments_"),
  );
  return { input: part?.input, change };
}

/**
 * The mapping a decided call stands for: the input the SDK hands the tool; for a call the package kept unusable (the
 * SDK refuses it or, for a schema that takes anything, passes it on), R1's raw sentinel of the model's text; for a
 * call the SDK's own JSON parser refuses (secure-json-parse and `__proto__` keys), the input R4 stores.
 */
function mappingOf(
  text: string,
  call: { input?: unknown; invalid?: boolean } | undefined,
  report: ToolcallCallReport | undefined,
  options: Options,
): unknown {
  if (report?.usable === false && report.status !== "object") return { _raw_arguments: text };
  if (call?.invalid === true) return storedInput(text, options).input;
  return call?.input;
}

async function decodeText(input: string, options: Options) {
  const model = new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: "tool-call", toolCallId: "call_1", toolName: "f", input }],
      finishReason: finishOf(options.finishReason),
      usage: USAGE,
      warnings: [],
    }),
  });
  const result = await generateText({
    model: wrapLanguageModel({ model, middleware: toolcallMiddleware(decideOptions(options)) }),
    prompt: "call f",
    tools: { f: tool({ inputSchema: z.looseObject({}) }) },
    experimental_repairToolCall: toolcallRepair(decideOptions(options)),
  });
  const call = result.steps[0]?.content.find((part) => part.type === "tool-call");
  const report = call?.providerMetadata?.toolcall as ToolcallCallReport | undefined;
  return {
    status: report?.status ?? "object",
    arguments: mappingOf(input, call, report, options),
    repairs: report?.repairs ?? [],
    raw: input,
  };
}

function decodeStored(input: unknown, options: Options) {
  const { input: mapping, change } = storedInput(input, options);
  const status = change?.status ?? "object";
  return {
    status,
    arguments: mapping,
    repairs: change?.repairs ?? [],
    ...(status === "object" || status === "absent" ? {} : { raw: change?.before }),
  };
}

/** The deltas as the SSE body of a Chat Completions stream. */
function sseOf(deltas: unknown[], finishReason: string | null | undefined): string {
  const base = {
    id: "chatcmpl-conformance",
    object: "chat.completion.chunk",
    created: 0,
    model: "conformance",
  };
  const frames = [
    { ...base, choices: [{ index: 0, delta: { role: "assistant", content: null }, finish_reason: null }] },
    ...deltas.map((delta) => ({
      ...base,
      choices: [{ index: 0, delta: { tool_calls: [delta] }, finish_reason: null }],
    })),
    ...(finishReason == null
      ? []
      : [{ ...base, choices: [{ index: 0, delta: {}, finish_reason: finishReason }] }]),
  ];
  return `${frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join("")}${finishReason == null ? "" : "data: [DONE]\n\n"}`;
}

function namesOf(deltas: unknown[]): string[] {
  const names = deltas.map((delta) => (delta as { function?: { name?: unknown } }).function?.name);
  return [...new Set(names.filter((name): name is string => typeof name === "string" && name !== ""))];
}

async function accumulate(input: { deltas: unknown[]; finishReason?: string | null }, options: Options) {
  const body = sseOf(input.deltas, input.finishReason);
  const provider = createOpenAICompatible({
    name: "conformance",
    baseURL: "http://127.0.0.1:9/v1",
    fetch: async () => new Response(body, { headers: { "content-type": "text/event-stream" } }),
  });
  const result = streamText({
    model: wrapLanguageModel({
      model: provider.chatModel("m"),
      middleware: toolcallMiddleware(decideOptions(options)),
    }),
    prompt: "call",
    tools: Object.fromEntries(
      namesOf(input.deltas).map((name) => [name, tool({ inputSchema: z.looseObject({}) })]),
    ),
    experimental_repairToolCall: toolcallRepair(decideOptions(options)),
    onError: () => {},
  });
  const texts = new Map<string, string>();
  const calls: Array<{
    toolCallId: string;
    toolName: string;
    input: unknown;
    invalid?: boolean;
    providerMetadata?: Record<string, unknown>;
  }> = [];
  for await (const part of result.fullStream) {
    if (part.type === "tool-input-start") texts.set(part.id, "");
    else if (part.type === "tool-input-delta") texts.set(part.id, (texts.get(part.id) ?? "") + part.delta);
    else if (part.type === "tool-call") calls.push(part as never);
  }
  return calls.map((call, index) => {
    const report = call.providerMetadata?.toolcall as ToolcallCallReport | undefined;
    const text = texts.get(call.toolCallId) ?? "";
    return {
      index,
      id: call.toolCallId,
      name: call.toolName,
      arguments: text,
      status: report?.status ?? (text === "" ? "absent" : "object"),
      decoded:
        report?.usable === false || call.invalid === true ? storedInput(text, options).input : call.input,
    };
  });
}

/** A fresh answer with one call whose input is `input`, from the model layer (V3: input as JSON text). */
function answerModel(input: unknown, options: Options) {
  const call = { type: "tool-call" as const, toolCallId: "call_1", toolName: "f", input: input as string };
  const finish = { type: "finish" as const, finishReason: finishOf(options.finishReason), usage: USAGE };
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [call],
      finishReason: finishOf(options.finishReason),
      usage: USAGE,
      warnings: [],
    }),
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          controller.enqueue(call);
          controller.enqueue(finish);
          controller.close();
        },
      }),
    }),
  });
}

/**
 * normalizeAnswer: the call as the middleware hands it to the SDK, whole (`doGenerate`) and streamed (`doStream`),
 * which must agree. `text` is what the SDK reads as the call's arguments text: the input itself, except for an unusable
 * call handed over as a JSON string literal of the model's text (the SDK parses it back to that text).
 */
async function normalizeAnswer(input: unknown, options: Options) {
  const model = wrapLanguageModel({
    model: answerModel(input, options),
    middleware: toolcallMiddleware(decideOptions(options)),
  });
  const params = {
    prompt: [{ role: "user" as const, content: [{ type: "text" as const, text: "call f" }] }],
  };
  const whole = (await model.doGenerate(params)).content.find((part) => part.type === "tool-call");
  const streamed: unknown[] = [];
  for await (const part of (await model.doStream(params)).stream)
    if (part.type === "tool-call") streamed.push(part);
  if (streamed.length !== 1 || !isDeepStrictEqual(streamed[0], whole))
    throw new Error(`whole and streamed answers differ: ${JSON.stringify([whole, streamed])}`);
  const report = whole?.providerMetadata?.toolcall as ToolcallCallReport | undefined;
  const handed: unknown = whole?.input;
  const text =
    report?.usable === false && handed !== input && typeof handed === "string" ? JSON.parse(handed) : handed;
  return {
    text,
    status: report?.status ?? "object",
    changed: text !== input,
    usable: report?.usable ?? true,
    repairs: report?.repairs ?? [],
  };
}

// Vectors an AI SDK shape cannot carry, by id, with the reason.
const ACCUMULATES_ITSELF =
  "@ai-sdk/openai-compatible accumulates argument deltas itself, by concatenation, before any middleware sees them";
const SKIP: Record<string, string> = {
  "r6-schema-types-*":
    "the adapter's options take no tool schema yet: typing by the schema is core's and the openai adapter's",
  "r1-statuses-empty-string-is-still-empty":
    "a fresh answer: empty arguments after a length stop are a call cut before its arguments (core's fresh-answer rule)",
  "r9-accumulate-name-in-fragments":
    "@ai-sdk/openai-compatible starts a new call at a delta that names a tool again",
  "r9-accumulate-final-frame-repeating-name-and-arguments":
    "@ai-sdk/openai-compatible starts a new call at a delta that names a tool again",
  "r9-accumulate-repeated-final-frame-is-not-appended": ACCUMULATES_ITSELF,
  "r9-accumulate-complete-frame-that-extends-a-partial-buffer-replaces-it": ACCUMULATES_ITSELF,
  "r9-accumulate-empty-buffer-is-absent":
    'the SDK\'s tool call carries input as text: arguments never sent arrive as ""',
  "r9-stream-decisions-no-argument-text-is-empty-object":
    'the SDK\'s tool call carries input as text: arguments never sent arrive as "" (`empty`, the same `{}`)',
  "r9-accumulate-arguments-never-sent-are-absent":
    'the SDK\'s tool call carries input as text: arguments never sent arrive as ""',
};

describeConformance({
  implementation: {
    decideStream: (input: { deltas: unknown[]; finishReason?: string | null }, options: Options) =>
      decideStream(input, { ...decideOptions(options), splitMergedCalls: options.splitMergedCalls === true }),
    name: "@toolcall/ai-sdk",
    decode: (input, options: Options) =>
      typeof input === "string" ? decodeText(input, options) : decodeStored(input, options),
    sanitize(messages, options: Options) {
      const input = fromNeutralMessages(messages as ChatMessage[]);
      const result = sanitizeModelMessages(input, options as SanitizeOptions);
      if (result.messages === input) return { messages, changes: result.changes };
      return { messages: toNeutralMessages(result.messages), changes: result.changes };
    },
    sanitizeProvider(messages, options: Options) {
      return this.sanitize?.(messages, options) as { messages: unknown; changes: { rule: string }[] };
    },
    accumulate: (input, options: Options) => accumulate(input as never, options),
    normalizeAnswer: (input, options: Options) => normalizeAnswer(input, options),
    resolveRepairs(ids: readonly string[]) {
      const core = resolveCoreRepairs(ids.filter((id) => id !== gemmaQuoteMarkers.id));
      return core === undefined
        ? undefined
        : [...core, ...(ids.includes(gemmaQuoteMarkers.id) ? [gemmaQuoteMarkers] : [])];
    },
  },
  skip: SKIP,
});
