/**
 * Section 4: the guarded Chat Completions stream against the raw SDK stream, on the same 10 000-chunk SSE body parsed
 * by the SDK itself (`Stream.fromSSEResponse`), CPU time per pass, interleaved rounds, order rotated each round.
 */
import { coreRepairs } from "@toolcall/core";
import { repairChatCompletionStream } from "@toolcall/openai";
import { Stream } from "openai/streaming";
import { cpuPair } from "./measure.mjs";

/** A realistic stream: mostly content deltas, then parallel calls with arguments in small deltas. */
export function sseBody(chunks = 10_000) {
  const base = {
    id: "chatcmpl-bench",
    object: "chat.completion.chunk",
    created: 1775000000,
    model: "bench-model",
  };
  const frame = (delta, finish = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  const calls = 8;
  const perCall = Math.floor((chunks * 0.2) / calls); // a fifth of the chunks carry calls: a header, then deltas
  const frames = [frame({ role: "assistant", content: "" })];
  const contentChunks = chunks - 2 - calls * perCall;
  for (let i = 0; i < contentChunks; i++) frames.push(frame({ content: `token ${i % 97} ` }));
  for (let c = 0; c < calls; c++) {
    frames.push(
      frame({
        tool_calls: [
          { index: c, id: `call_${c}`, type: "function", function: { name: "search", arguments: "" } },
        ],
      }),
    );
    const args = JSON.stringify({ query: `q${c} ${"x".repeat(perCall * 3)}`, page: c });
    const pieces = perCall - 1;
    const step = Math.ceil(args.length / pieces);
    for (let k = 0; k < pieces; k++) {
      frames.push(
        frame({ tool_calls: [{ index: c, function: { arguments: args.slice(k * step, (k + 1) * step) } }] }),
      );
    }
  }
  frames.push(frame({}, "tool_calls"));
  frames.push("data: [DONE]\n\n");
  return { text: frames.join(""), chunks: frames.length - 1 };
}

/** An SSE response whose body is `bytes` in socket-sized pieces (16 KB), as a server's writes arrive. */
export function sseResponse(bytes) {
  return new Response(
    new ReadableStream({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 16_384) controller.enqueue(bytes.subarray(at, at + 16_384));
        controller.close();
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );
}

function sdkStream(bytes) {
  return Stream.fromSSEResponse(sseResponse(bytes), new AbortController());
}

async function consume(stream) {
  let n = 0;
  for await (const chunk of stream) n += chunk.choices.length;
  return n;
}

/** Measures raw vs guarded; returns per-pass CPU ms of each and the per-round ratio distribution. */
export async function measureStream({ rounds, passes }) {
  const { text, chunks } = sseBody();
  const bytes = new TextEncoder().encode(text);
  const tasks = [
    { name: "raw SDK stream (floor)", run: () => consume(sdkStream(bytes)) },
    {
      name: "repairChatCompletionStream(SDK stream)",
      run: () => consume(repairChatCompletionStream(sdkStream(bytes), { repairs: coreRepairs })),
    },
  ];
  const pair = await cpuPair(
    tasks.map((task) => task.run),
    { rounds, passes },
  );
  return {
    chunks,
    bytes: bytes.length,
    raw: pair.floor,
    guarded: pair.task,
    ratio: pair.ratio,
    low: pair.low,
    high: pair.high,
    names: tasks.map((t) => t.name),
  };
}
