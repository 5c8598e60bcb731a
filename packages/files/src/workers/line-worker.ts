import { parentPort, workerData } from "node:worker_threads";
import { createRecordEngine, type SanitizeOptions } from "@toolcall/core";
import type { PendingPolicy } from "@toolcall/core/kit";
import { forcedFormat, type WorkContext } from "../records/record-work.js";
import { resolveRepairs } from "../records/repair-registry.js";
import { OpenFiles, type OutputPiece, ReadBuffers, writeRangePieces } from "./range-files.js";
import type { RangeRequest } from "./range-types.js";
import { workRange } from "./range-work.js";
import { threadCpuSeconds } from "./thread-cpu.js";
import type { LineBatch, WorkerConfig } from "./worker-pool.js";
import { inlinePool } from "./worker-pool.js";

// A worker thread of `toolcall check` and `repair`: it builds the main thread's context from plain settings, then
// works on each batch of lines it is sent and posts the results back.
const config = workerData as WorkerConfig;
const resolved = await resolveRepairs(config.repairNames);
if (!resolved.ok) throw new Error(resolved.error);
const forced = forcedFormat(config.format);
const context: WorkContext = {
  mode: config.mode,
  processor: createRecordEngine({
    repairs: resolved.rules,
    ...(config.policy !== undefined ? { policy: config.policy as SanitizeOptions["policy"] } : {}),
    ...(config.missingResult !== undefined
      ? { missingResult: config.missingResult as SanitizeOptions["missingResult"] }
      : {}),
    ...(config.syntheticResult !== undefined ? { syntheticResult: config.syntheticResult } : {}),
    ...(config.pending !== undefined ? { pending: config.pending as PendingPolicy } : {}),
    ...(config.providers !== undefined ? { providers: config.providers } : {}),
    ...(config.provider !== undefined ? { provider: config.provider } : {}),
  }),
  ...(forced !== undefined ? { forced } : {}),
};
const pool = inlinePool(context);
const files = new OpenFiles();
/** Outputs of ranges worked on, held until the main thread says where they go. */
const held = new Map<number, { pieces: OutputPiece[]; path: string; scratch: Buffer }>();
const buffers = new ReadBuffers();

/** A message from the main thread: a batch of lines, a byte range of a file, or where a range's output goes. */
type Message =
  | { id: number; bytes: Uint8Array; ends: number[]; numbers: number[] }
  | { id: number; range: RangeRequest }
  | { id: number; place: { range: number; output: string; offset: number } }
  | { id: number; drop: number }
  | { id: number; closeFiles: true };

async function answer(message: Message): Promise<{ value: unknown; transfer: ArrayBuffer[] }> {
  if ("range" in message) {
    const fd = files.fd(message.range.path, "r");
    const scratch = buffers.take(message.range.end - message.range.start + 1);
    const { result, pieces } = await workRange({ context, request: message.range, fd, scratch });
    if (message.range.write) held.set(message.id, { pieces, path: message.range.path, scratch });
    else buffers.give(scratch);
    return { value: result, transfer: [] };
  }
  if ("place" in message) {
    const range = held.get(message.place.range);
    held.delete(message.place.range);
    if (range === undefined) throw new Error(`no range ${message.place.range} is held`);
    const written = writeRangePieces({
      pieces: range.pieces,
      offset: message.place.offset,
      outputFd: files.fd(message.place.output, "r+"),
      inputFd: files.fd(range.path, "r"),
    });
    buffers.give(range.scratch);
    return { value: written, transfer: [] };
  }
  if ("drop" in message) {
    const range = held.get(message.drop);
    if (range !== undefined) buffers.give(range.scratch);
    held.delete(message.drop);
    return { value: true, transfer: [] };
  }
  if ("closeFiles" in message) {
    held.clear();
    buffers.clear();
    files.closeAll();
    return { value: threadCpuSeconds() ?? null, transfer: [] };
  }
  const bytes = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
  const contents = message.ends.map((end, i) => bytes.subarray(i === 0 ? 0 : message.ends[i - 1], end));
  const batch: LineBatch = { contents, numbers: message.numbers };
  const results = await pool.run(batch);
  // Rewritten lines go back as their own buffers, handed over without a copy.
  const transfer: ArrayBuffer[] = [];
  const sent = results.map((result) => {
    if (result.kind !== "record") return result;
    // Data with exact numbers goes as its JSON text only (a structured clone would turn them into objects).
    const data = result.exactData === undefined ? result : { ...result, data: undefined };
    if (result.bytes === undefined) return data;
    const own = new Uint8Array(result.bytes);
    transfer.push(own.buffer);
    return { ...data, bytes: own };
  });
  return { value: sent, transfer };
}

parentPort?.on("message", async (message: Message) => {
  try {
    const { value, transfer } = await answer(message);
    parentPort?.postMessage({ id: message.id, results: value }, transfer);
  } catch (error) {
    parentPort?.postMessage({
      id: message.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
});
parentPort?.postMessage({ ready: true });
