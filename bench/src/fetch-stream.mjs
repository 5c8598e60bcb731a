/**
 * Section 9: `guardFetch` against the bare `fetch` it wraps, on the same clean SSE body (the 10 000-chunk body of
 * section 5: four fifths content deltas, then eight calls whose arguments arrive in small deltas, all valid), read
 * the way a client reads it: through the `openai` SDK's `Stream.fromSSEResponse` (the target row), and as bytes only
 * (`response.arrayBuffer()`, no parsing at all: the guard's own cost laid bare, no target). The bare fetch answers
 * from memory in 16 KB pieces, as a socket delivers them. CPU time per pass, rounds interleaved, order rotated.
 */
import { coreRepairs } from "@toolcall/core";
import { guardFetch } from "@toolcall/openai";
import { Stream } from "openai/streaming";
import { cpuPair } from "./measure.mjs";
import { sseBody, sseResponse } from "./stream.mjs";

const URL_ = "http://bench.invalid/v1/chat/completions";
const REQUEST = {
  method: "POST",
  body: '{"model":"m","stream":true,"messages":[{"role":"user","content":"Go."}]}',
};

function bareFetchOf(bytes) {
  return async () => sseResponse(bytes);
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

/** Bare and guarded side by side (measure.mjs's cpuPair), as speed ratios: bare time ÷ guarded time, per round. */
async function pair({ bare, guarded, read, rounds, passes }) {
  const cpu = await cpuPair([() => read(bare), () => read(guarded)], { rounds, passes });
  return { bare: cpu.floor, guarded: cpu.task, ratio: 1 / cpu.ratio, low: 1 / cpu.high, high: 1 / cpu.low };
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
