import { Worker } from "node:worker_threads";
import type { ProviderCheck } from "./provider-verdicts.js";
import { type LineResult, type WorkContext, workLine } from "./record-work.js";

/** Lines to work on: each line's content bytes (without its terminator) and its number. */
export interface LineBatch {
  contents: Buffer[];
  numbers: number[];
}

/** Works on batches of JSONL lines, in order or in parallel; each batch's results come back in its order. */
export interface LinePool {
  readonly workers: number;
  run(batch: LineBatch): Promise<LineResult[]>;
  close(): Promise<void>;
}

/** What a worker needs to build the same context the main thread has (functions do not cross threads). */
export interface WorkerConfig {
  mode: "check" | "repair";
  repairNames: readonly string[];
  policy?: string;
  missingResult?: string;
  pending?: string;
  syntheticResult?: string;
  format?: string;
  providers?: ProviderCheck;
  provider?: string;
}

function runBatch(
  context: WorkContext,
  state: { current?: WorkContext["forced"] },
  batch: LineBatch,
): LineResult[] {
  return batch.contents.map((content, i) => workLine(context, content, batch.numbers[i] as number, state));
}

/**
 * Works on lines on the calling thread, one batch after another (`--jobs 1`, and every input too small to share).
 *
 * @example
 * const pool = inlinePool(context);
 */
export function inlinePool(context: WorkContext): LinePool {
  const state = {};
  return {
    workers: 0,
    run: (batch) => Promise.resolve(runBatch(context, state, batch)),
    close: async () => {},
  };
}

/**
 * Worker threads that work on batches of lines, each batch on the least busy worker: the bytes go over as one
 * transferred buffer, the results come back as plain data (rewritten text, findings), so the order is the caller's
 * to keep and memory is the caller's to bound (it limits the batches in flight).
 *
 * @example
 * const pool = await workerPool({ workers: 2, config: { mode: "repair", repairNames: ["core"] } });
 */
export async function workerPool(options: { workers: number; config: WorkerConfig }): Promise<LinePool> {
  const url = new URL("./line-worker.js", import.meta.url);
  const pending = new Map<number, { resolve(results: LineResult[]): void; reject(error: Error): void }>();
  const busy: number[] = [];
  const workers: Worker[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: options.workers }, (_, index) => {
      const worker = new Worker(url, { workerData: options.config });
      workers.push(worker);
      busy.push(0);
      worker.on("message", (message: { id: number; results?: LineResult[]; error?: string }) => {
        const waiting = pending.get(message.id);
        if (waiting === undefined) return;
        pending.delete(message.id);
        busy[index] = (busy[index] ?? 1) - 1;
        if (message.error !== undefined) waiting.reject(new Error(message.error));
        else waiting.resolve(message.results ?? []);
      });
      worker.on("error", (error) => {
        for (const waiting of pending.values()) waiting.reject(error);
        pending.clear();
      });
      return new Promise<void>((resolve, reject) => {
        worker.once("message", () => resolve());
        worker.once("error", reject);
      });
    }),
  );
  return {
    workers: workers.length,
    run(batch) {
      const id = next++;
      let index = 0;
      for (let i = 1; i < busy.length; i++) if ((busy[i] as number) < (busy[index] as number)) index = i;
      busy[index] = (busy[index] as number) + 1;
      const worker = workers[index] as Worker;
      // The lines are copied once into a buffer of their own, handed over whole (no second copy on the way).
      let size = 0;
      for (const content of batch.contents) size += content.length;
      const bytes = new Uint8Array(size);
      const ends: number[] = [];
      let at = 0;
      for (const content of batch.contents) {
        bytes.set(content, at);
        at += content.length;
        ends.push(at);
      }
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, bytes, ends, numbers: batch.numbers }, [bytes.buffer]);
      });
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
