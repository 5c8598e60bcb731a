import { parentPort, workerData } from "node:worker_threads";
import { createRecordEngine, type SanitizeOptions } from "@toolcall/core";
import type { PendingPolicy } from "@toolcall/core/kit";
import { forcedFormat, type WorkContext } from "./record-work.js";
import { resolveRepairs } from "./repair-registry.js";
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
parentPort?.on(
  "message",
  async (message: { id: number; bytes: Uint8Array; ends: number[]; numbers: number[] }) => {
    try {
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
      parentPort?.postMessage({ id: message.id, results: sent }, transfer);
    } catch (error) {
      parentPort?.postMessage({
        id: message.id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  },
);
parentPort?.postMessage({ ready: true });
