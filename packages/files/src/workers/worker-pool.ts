import { Worker } from "node:worker_threads";
import type { ProviderCheck } from "../records/provider-verdicts.js";
import { type LineResult, type WorkContext, workLine } from "../records/record-work.js";
import type { RangeRequest, RangeResult } from "./range-types.js";

/**
 * A worker's young generation, smaller than V8's default: a worker allocates in bursts (a range at a time), and a
 * smaller nursery keeps each worker's memory down at no measurable cost in CPU (most of what it allocates dies young).
 */
const YOUNG_GENERATION = { maxYoungGenerationSizeMb: 12 };

/** Lines to work on: each line's content bytes (without its terminator) and its number. */
export interface LineBatch {
  contents: Buffer[];
  numbers: number[];
}

/** Works on batches of JSONL lines, in order or in parallel; each batch's results come back in its order. */
export interface LinePool {
  readonly workers: number;
  run(batch: LineBatch): Promise<LineResult[]>;
  /** Byte ranges of a file, each read, worked on and written by a worker itself (worker threads only). */
  ranges?: RangeWorkers;
  close(): Promise<void>;
}

/** Workers that read their own byte ranges of a file and write their own output at the offsets they are given. */
export interface RangeWorkers {
  /** Works on a range; its output (when `write`) stays with the worker until {@link place}d or dropped. */
  work(request: RangeRequest): Promise<{ id: number; result: RangeResult }>;
  /** Writes a range's output at `offset` of `output`; answers the bytes written. */
  place(options: { id: number; output: string; offset: number }): Promise<number>;
  /** Forgets a range's output (the run stopped). */
  drop(id: number): Promise<void>;
  /**
   * Closes the files every worker holds open (once a file is done); answers each worker's CPU seconds so far (its
   * thread's /proc times; `undefined` off Linux).
   */
  closeFiles(): Promise<Array<number | undefined>>;
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
  const pending = new Map<
    number,
    { resolve(results: unknown): void; reject(error: Error): void; worker: number }
  >();
  const busy: number[] = [];
  const workers: Worker[] = [];
  /** Which worker holds each range's output. */
  const holders = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: options.workers }, (_, index) => {
      const worker = new Worker(url, { workerData: options.config, resourceLimits: YOUNG_GENERATION });
      workers.push(worker);
      busy.push(0);
      worker.on("message", (message: { id: number; results?: unknown; error?: string }) => {
        const waiting = pending.get(message.id);
        if (waiting === undefined) return;
        pending.delete(message.id);
        busy[index] = (busy[index] ?? 1) - 1;
        if (message.error !== undefined) waiting.reject(new Error(message.error));
        else waiting.resolve(message.results ?? []);
      });
      worker.on("error", (error) => {
        for (const [id, waiting] of pending) {
          if (waiting.worker !== index) continue;
          waiting.reject(error);
          pending.delete(id);
        }
      });
      return new Promise<void>((resolve, reject) => {
        worker.once("message", () => resolve());
        worker.once("error", reject);
      });
    }),
  );
  const leastBusy = () => {
    let index = 0;
    for (let i = 1; i < busy.length; i++) if ((busy[i] as number) < (busy[index] as number)) index = i;
    return index;
  };
  const send = <T>(options: { worker: number; message: object; transfer?: ArrayBuffer[]; id?: number }) => {
    const id = options.id ?? next++;
    busy[options.worker] = (busy[options.worker] as number) + 1;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (results: unknown) => void, reject, worker: options.worker });
      (workers[options.worker] as Worker).postMessage({ id, ...options.message }, options.transfer ?? []);
    });
  };
  return {
    workers: workers.length,
    run(batch) {
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
      return send<LineResult[]>({
        worker: leastBusy(),
        message: { bytes, ends, numbers: batch.numbers },
        transfer: [bytes.buffer],
      });
    },
    ranges: {
      async work(request) {
        const id = next++;
        const worker = leastBusy();
        if (request.write) holders.set(id, worker);
        const result = await send<RangeResult>({ worker, id, message: { range: request } });
        return { id, result };
      },
      place({ id, output, offset }) {
        const worker = holders.get(id);
        holders.delete(id);
        if (worker === undefined) return Promise.reject(new Error(`no worker holds range ${id}`));
        return send<number>({ worker, message: { place: { range: id, output, offset } } });
      },
      async drop(id) {
        const worker = holders.get(id);
        holders.delete(id);
        if (worker !== undefined) await send({ worker, message: { drop: id } });
      },
      async closeFiles() {
        const answers = await Promise.all(
          workers.map((_, worker) => send<number | null>({ worker, message: { closeFiles: true } })),
        );
        return answers.map((seconds) => (typeof seconds === "number" ? seconds : undefined));
      },
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
