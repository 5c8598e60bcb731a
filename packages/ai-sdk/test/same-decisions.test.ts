import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { AIMessageChunk, ToolCallChunk } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { coreRepairs } from "@toolcall/core";
import { gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
import { repairToolCallStream } from "@toolcall/langchain";
import { type ArgumentsReport, guardOpenAI } from "@toolcall/openai";
import { wrapLanguageModel } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolcallMiddleware } from "../src/index.js";

// One recorded stream through the three SDK doors, each with its real SDK: `openai` (guardOpenAI), `@langchain/core`
// with `@langchain/openai` (repairToolCallStream), and `ai` with `@ai-sdk/openai-compatible` (toolcallMiddleware).
// The stream is the recorded qwen3-max answer (__fixtures__/README.md: Vercel AI SDK fixtures, Apache License 2.0);
// the scenarios are look-alikes made from it: the call's arguments replaced, and the recorded call repeated at
// index 1 with a new id and clean arguments, so a second call follows the first (a held first call holds it back).

const recordedLines = readFileSync(
  join(import.meta.dirname, "__fixtures__", "recorded", "alibaba-qwen3-max-tool-call.chunks.txt"),
  "utf8",
)
  .split("\n")
  .filter((line) => line !== "");

interface Scenario {
  /** The first call's argument fragments (they replace the recorded two). */
  pieces: [string, string];
  finishReason: string;
}

const SCENARIOS: Record<string, Scenario> = {
  recorded: { pieces: ['{"location": "San Francisco', '"}'], finishReason: "tool_calls" },
  python: { pieces: ["{'location': ", "'San Francisco'}"], finishReason: "tool_calls" },
  fenced: { pieces: ['```json\n{"location": ', '"San Francisco"}\n```'], finishReason: "tool_calls" },
  // Gemma 4's quote markers, as the loopback DashScope of the other tests serves them.
  gemma: { pieces: ['{"location": "<|\\"|', '"San Francisco<|\\""}'], finishReason: "tool_calls" },
  truncated: { pieces: ['{"location": "San', " Fr"], finishReason: "length" },
};

const SECOND_ID = "call_second_1";
const repairs = [...coreRepairs, gemmaQuoteMarkers];

/** The recorded chunks with a scenario's arguments, and the recorded call repeated at index 1 before the finish. */
interface RecordedCall {
  index: number;
  id: string;
  function: { name?: string; arguments: string };
}
interface RecordedChunk {
  choices: Array<{ finish_reason?: string | null; delta: { tool_calls?: RecordedCall[] } }>;
}

const callOf = (chunk: RecordedChunk): RecordedCall =>
  chunk.choices[0]?.delta.tool_calls?.[0] as RecordedCall;

function streamOf(scenario: Scenario): string {
  const chunks = recordedLines.map((line) => JSON.parse(line) as RecordedChunk);
  const [open, first, second, trailing, finish, usage] = chunks as [
    RecordedChunk,
    RecordedChunk,
    RecordedChunk,
    RecordedChunk,
    RecordedChunk,
    RecordedChunk,
  ];
  callOf(first).function.arguments = scenario.pieces[0];
  callOf(second).function.arguments = scenario.pieces[1];
  const again = (chunk: RecordedChunk, edit: (call: RecordedCall) => void) => {
    const copy = structuredClone(chunk);
    const call = callOf(copy);
    call.index = 1;
    edit(call);
    return copy;
  };
  const secondCall = [
    again(open, (call) => {
      call.id = SECOND_ID;
    }),
    again(first, (call) => {
      call.function.arguments = '{"location": "Paris';
    }),
    again(second, (call) => {
      call.function.arguments = '"}';
    }),
  ];
  (finish.choices[0] as { finish_reason?: string }).finish_reason = scenario.finishReason;
  const all = [open, first, second, trailing, ...secondCall, finish, usage];
  return `${all.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("")}data: [DONE]\n\n`;
}

let server: Server;
let baseURL: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (piece) => {
      body += piece;
    });
    request.on("end", () => {
      const model = (JSON.parse(body) as { model: string }).model;
      const scenario = SCENARIOS[model];
      if (scenario === undefined) {
        response
          .writeHead(404, { "content-type": "application/json" })
          .end('{"error":{"message":"no model"}}');
        return;
      }
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      response.end(streamOf(scenario));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/**
 * A decision as any client sees it: the call, whether a tool can run on it, what it gets (a value, or text), and
 * what the call's streamed pieces add up to (the same value, or the same text).
 */
interface Decision {
  id: string | undefined;
  name: string;
  usable: boolean;
  value: unknown;
  streamed?: unknown;
}

const received = (usable: boolean, text: string): unknown => (usable ? JSON.parse(text) : text);

async function throughOpenAI(model: string): Promise<Decision[]> {
  const reports: ArgumentsReport[] = [];
  const client = guardOpenAI(new OpenAI({ apiKey: "test", baseURL, maxRetries: 0 }), {
    repairs,
    onRepair: (report) => {
      if (report.kind === "arguments") reports.push(report);
    },
  });
  const stream = await client.chat.completions.create({
    model,
    messages: [{ role: "user", content: "weather?" }],
    stream: true,
  });
  const calls = new Map<number, { id?: string; name: string; text: string }>();
  for await (const chunk of stream)
    for (const toolCall of chunk.choices[0]?.delta.tool_calls ?? []) {
      const call = calls.get(toolCall.index) ?? { name: "", text: "" };
      if (toolCall.id) call.id = toolCall.id;
      call.name += toolCall.function?.name ?? "";
      call.text += toolCall.function?.arguments ?? "";
      calls.set(toolCall.index, call);
    }
  return [...calls.values()].map((call) => {
    const usable = reports.find((report) => report.toolCallId === call.id)?.usable ?? true;
    const value = received(usable, call.text);
    return { id: call.id, name: call.name, usable, value, streamed: value };
  });
}

async function throughLangChain(model: string): Promise<Decision[]> {
  const chat = new ChatOpenAI({ model, apiKey: "test", configuration: { baseURL }, maxRetries: 0 });
  let full: AIMessageChunk | undefined;
  const fragments: ToolCallChunk[] = [];
  for await (const chunk of repairToolCallStream(await chat.stream("weather?"), { repairs })) {
    const message = chunk as AIMessageChunk;
    for (const fragment of message.tool_call_chunks ?? []) fragments.push(fragment);
    full = full === undefined ? message : full.concat(message);
  }
  const valid = (full?.tool_calls ?? []).map((call) => ({
    id: call.id,
    name: call.name,
    usable: true,
    value: call.args,
  }));
  const invalid = (full?.invalid_tool_calls ?? []).map((call) => ({
    id: call.id,
    name: call.name ?? "",
    usable: false,
    value: call.args,
  }));
  const order = (full?.additional_kwargs.tool_calls ?? []).map((call) => call.id ?? "");
  // What the yielded fragments add up to, per call index (LangChain's concat merges them by index).
  const pieces = new Map<number, { id?: string; text: string }>();
  for (const fragment of fragments) {
    const entry = pieces.get(fragment.index ?? -1) ?? { text: "" };
    if (fragment.id) entry.id = fragment.id;
    entry.text += fragment.args ?? "";
    pieces.set(fragment.index ?? -1, entry);
  }
  const streamedText = (id: string | undefined) =>
    [...pieces.values()].find((entry) => entry.id === id)?.text ?? "";
  return [...valid, ...invalid]
    .sort((a, b) => order.indexOf(a.id ?? "") - order.indexOf(b.id ?? ""))
    .map((decision) => ({ ...decision, streamed: received(decision.usable, streamedText(decision.id)) }));
}

async function throughAiSdk(model: string): Promise<Decision[]> {
  const provider = createOpenAICompatible({ name: "recorded", baseURL, apiKey: "test" });
  const wrapped = wrapLanguageModel({
    model: provider.chatModel(model),
    middleware: toolcallMiddleware({ repairs }),
  });
  const { stream } = await wrapped.doStream({
    prompt: [{ role: "user", content: [{ type: "text", text: "weather?" }] }],
  });
  const decisions: Decision[] = [];
  const deltas = new Map<string, string>();
  for await (const part of stream) {
    if (part.type === "tool-input-delta") deltas.set(part.id, (deltas.get(part.id) ?? "") + part.delta);
    if (part.type !== "tool-call") continue;
    const report = part.providerMetadata?.toolcall as { usable?: boolean; raw?: string } | undefined;
    const usable = report?.usable ?? true;
    const text = usable ? part.input : (report?.raw ?? part.input);
    decisions.push({
      id: part.toolCallId,
      name: part.toolName,
      usable,
      value: received(usable, text),
      streamed: received(usable, deltas.get(part.toolCallId) ?? ""),
    });
  }
  return decisions;
}

const SF = { location: "San Francisco" };
const PARIS = { location: "Paris" };

describe("one recorded stream through openai, langchain and ai-sdk", () => {
  const expected: Record<string, Decision[]> = {
    recorded: [
      { id: "call_eee11723464a4b9eb8cee71d", name: "weather", usable: true, value: SF, streamed: SF },
      { id: SECOND_ID, name: "weather", usable: true, value: PARIS, streamed: PARIS },
    ],
    python: [
      { id: "call_eee11723464a4b9eb8cee71d", name: "weather", usable: true, value: SF, streamed: SF },
      { id: SECOND_ID, name: "weather", usable: true, value: PARIS, streamed: PARIS },
    ],
    fenced: [
      { id: "call_eee11723464a4b9eb8cee71d", name: "weather", usable: true, value: SF, streamed: SF },
      { id: SECOND_ID, name: "weather", usable: true, value: PARIS, streamed: PARIS },
    ],
    gemma: [
      { id: "call_eee11723464a4b9eb8cee71d", name: "weather", usable: true, value: SF, streamed: SF },
      { id: SECOND_ID, name: "weather", usable: true, value: PARIS, streamed: PARIS },
    ],
    // The length stop cut the stream: the first call is cut text no tool may run; the second one is whole JSON.
    truncated: [
      {
        id: "call_eee11723464a4b9eb8cee71d",
        name: "weather",
        usable: false,
        value: '{"location": "San Fr',
        streamed: '{"location": "San Fr',
      },
      { id: SECOND_ID, name: "weather", usable: true, value: PARIS, streamed: PARIS },
    ],
  };

  for (const model of Object.keys(SCENARIOS)) {
    it(`gives the same decisions for the ${model} stream`, async () => {
      const [openai, langchain, aiSdk] = [
        await throughOpenAI(model),
        await throughLangChain(model),
        await throughAiSdk(model),
      ];
      expect(openai).toEqual(expected[model]);
      expect(langchain).toEqual(openai);
      expect(aiSdk).toEqual(openai);
    });
  }
});
