import type { WorkContext } from "../records/record-work.js";
import { inlinePool, type LinePool, type WorkerConfig, workerPool } from "./worker-pool.js";

/** Below this size a file is worked on here: starting workers would cost more than they save. */
const SMALL_INPUT = 8 << 20;

/**
 * The pool a command's files are worked on with: worker threads, started once for the first file large enough to
 * need them (or read from a pipe, whose size is unknown; or any file when `--jobs` asked for them) and shared by the
 * next; the calling thread otherwise.
 *
 * @example
 * const pools = new PoolCache({ jobs: 2, config, context });
 * const pool = await pools.for(size);
 */
export class PoolCache {
  readonly #jobs: number;
  readonly #always: boolean;
  readonly #config: WorkerConfig;
  readonly #inline: LinePool;
  #workers: Promise<LinePool> | undefined;

  /** `always`: workers whatever the size (`--jobs N` given). */
  constructor(options: { jobs: number; always?: boolean; config: WorkerConfig; context: WorkContext }) {
    this.#jobs = options.jobs;
    this.#always = options.always === true;
    this.#config = options.config;
    this.#inline = inlinePool(options.context);
  }

  for(size: number | undefined): Promise<LinePool> {
    if (this.#jobs <= 1 || (!this.#always && size !== undefined && size < SMALL_INPUT)) {
      return Promise.resolve(this.#inline);
    }
    this.#workers ??= workerPool({ workers: this.#jobs, config: this.#config });
    return this.#workers;
  }

  async close(): Promise<void> {
    await (await this.#workers)?.close();
  }
}
