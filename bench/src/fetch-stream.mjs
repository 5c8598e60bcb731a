/**
 * Section 6: `guardFetch` against the bare `fetch` it wraps, on the same clean SSE body (the 10 000-chunk body of
 * section 5: four fifths content deltas, then eight calls whose arguments arrive in small deltas, all valid), read
 * the way a client reads it: through the `openai` SDK's `Stream.fromSSEResponse` (the target row), and as bytes only
 * (`response.arrayBuffer()`, no parsing at all: the guard's own cost laid bare, no target). The bare fetch answers
 * from memory in 16 KB pieces, as a socket delivers them. CPU time per pass, rounds interleaved, order rotated.
 */
import { coreRepairs } from "@toolcall/core";
import { guardFetch } from "@toolcall/openai";
import { Stream } from "openai/streaming";
import { median, quantile } from "./measure.mjs";
import { sseBody } from "./stream.mjs";

const URL_ = "http://bench.invalid/v1/chat/completions";
const REQUEST = {
  method: "POST",
  body: '{"model":"m","stream":true,"messages":[{"role":"user","content":"Go."}]}',
};

function bareFetchOf(bytes) {
  return async () =>
    new Response(
      new ReadableStream({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 16_384)
            controller.enqueue(bytes.subarray(at, at + 16_384));
          controller.close();
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
}

async function viaSdk(fetch) {
  const response = await fetch(URL_, REQUEST);
  let n = 0;
  for await (const chunk of Stream.fromSSEResponse(response, new AbortController()))
    n += chunk.choices.length;
  return n;
}

async function viaBytes(fetch) {
  return (await (await fetch(URL_, REQUEST)).arrayBuffer()).byteLength;
}

async function cpuTime(task, passes) {
  const before = process.cpuUsage();
  for (let i = 0; i < passes; i++) await task();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / passes;
}

async function pair({ bare, guarded, read, rounds, passes }) {
  const tasks = [() => read(bare), () => read(guarded)];
  for (const task of tasks) for (let i = 0; i < 3; i++) await task();
  const times = [[], []];
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < 2; k++) {
      const i = (k + round) % 2;
      times[i].push(await cpuTime(tasks[i], passes));
    }
  }
  // A speed ratio: guarded throughput ÷ bare throughput = bare time ÷ guarded time, per round.
  const ratios = times[1].map((ms, r) => times[0][r] / ms);
  return {
    bare: median(times[0]),
    guarded: median(times[1]),
    ratio: median(ratios),
    low: quantile(ratios, 0.25),
    high: quantile(ratios, 0.75),
  };
}

/** Measures both readings; returns per-pass CPU ms and speed ratios (guarded ÷ bare throughput). */
export async function measureFetchStream({ rounds, passes }) {
  const { text, chunks } = sseBody();
  const bytes = new TextEncoder().encode(text);
  const bare = bareFetchOf(bytes);
  const guarded = guardFetch(bare, { repairs: coreRepairs });
  // The guard hands a clean stream on byte for byte: checked before timing.
  const out = new Uint8Array(await (await guarded(URL_, REQUEST)).arrayBuffer());
  const same = out.length === bytes.length && out.every((byte, i) => byte === bytes[i]);
  return {
    chunks,
    bytes: bytes.length,
    same,
    sdk: await pair({ bare, guarded, read: viaSdk, rounds, passes }),
    raw: await pair({ bare, guarded, read: viaBytes, rounds, passes }),
  };
}
