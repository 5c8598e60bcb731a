/**
 * The AI SDK middleware against the unwrapped model: the same 10 000-chunk Chat Completions SSE body parsed by the
 * real @ai-sdk/openai-compatible model, its `doStream` parts consumed whole, bare and through `wrapLanguageModel`
 * with `toolcallMiddleware`. CPU time per pass, interleaved rounds, order rotated each round, three warm-up passes
 * each first; the median of the per-round ratios is reported with their interquartile range. Both sides read the same
 * bytes through their own provider instance and are consumed by the same loop; before measuring, the two streams are
 * checked to hand over the same parts (types, text and input deltas, calls and their inputs), so neither side can
 * be cheaper by doing less.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { toolcallMiddleware } from "@toolcall/ai-sdk";
import { coreRepairs } from "@toolcall/core";
import { wrapLanguageModel } from "ai";
import { cpuPair } from "./measure.mjs";
import { sseBody, sseResponse } from "./stream.mjs";

function modelOf(bytes) {
  const provider = createOpenAICompatible({
    name: "bench",
    baseURL: "http://127.0.0.1:9/v1",
    // Where the server would be: the same bytes in socket-sized pieces, every pass.
    fetch: async () => sseResponse(bytes),
  });
  return provider.chatModel("bench-model");
}

const PARAMS = {
  prompt: [
    { role: "system", content: "You search." },
    { role: "user", content: [{ type: "text", text: "Find it." }] },
  ],
  tools: [
    {
      type: "function",
      name: "search",
      inputSchema: { type: "object", properties: { query: { type: "string" }, page: { type: "number" } } },
    },
  ],
};

async function consume(model) {
  const { stream } = await model.doStream(PARAMS);
  let parts = 0;
  let calls = 0;
  for await (const part of stream) {
    parts++;
    if (part.type === "tool-call") calls++;
  }
  return { parts, calls };
}

/** What a stream hands over, part by part (the `finish` part's metadata aside), to compare the two sides once. */
async function signature(model) {
  const { stream } = await model.doStream(PARAMS);
  const seen = [];
  for await (const part of stream)
    seen.push(
      `${part.type}:${part.delta ?? ""}:${part.type === "tool-call" ? `${part.toolCallId}:${part.input}` : ""}`,
    );
  return seen.join("\n");
}

/** Measures the unwrapped model against the wrapped one; returns per-pass CPU ms and the per-round ratios. */
export async function measureAiSdkStream({ rounds, passes }) {
  const { text } = sseBody();
  const bytes = new TextEncoder().encode(text);
  const bare = modelOf(bytes);
  const wrapped = wrapLanguageModel({
    model: modelOf(bytes),
    middleware: toolcallMiddleware({ repairs: coreRepairs }),
  });
  const seen = await consume(bare);
  const checked = await consume(wrapped);
  if (seen.parts !== checked.parts || seen.calls !== checked.calls || seen.calls === 0) {
    throw new Error(`the wrapped model's stream differs: ${JSON.stringify({ seen, checked })}`);
  }
  if ((await signature(bare)) !== (await signature(wrapped)))
    throw new Error("the wrapped model's stream hands over other parts than the unwrapped one");
  const tasks = [
    { name: "openai-compatible model.doStream (floor)", run: () => consume(bare) },
    { name: "wrapLanguageModel(model, toolcallMiddleware).doStream", run: () => consume(wrapped) },
  ];
  const pair = await cpuPair(
    tasks.map((task) => task.run),
    { rounds, passes },
  );
  return {
    parts: seen.parts,
    bytes: bytes.length,
    bare: pair.floor,
    wrapped: pair.task,
    ratio: pair.ratio,
    low: pair.low,
    high: pair.high,
    names: tasks.map((t) => t.name),
  };
}
