import type { InputIssue } from "../input/input-issue.js";
import type { LineResult } from "../records/record-work.js";
import type { LinePool } from "./worker-pool.js";

/** Bytes of JSONL lines per batch handed to the pool, and lines at most: big enough to be worth a trip. */
const BATCH_BYTES = 1 << 20;
const BATCH_LINES = 2000;

/** Where what the queue releases goes, strictly in input order. */
export interface LineBatchSink {
  /** Bytes that hold no line to work on (blank lines, a line too long to hold), kept as they are. */
  keep(bytes: Buffer): void;
  unreadable(place: { line: number }, issue: InputIssue): void;
  /** A JSONL line and what the pool made of it. */
  line(raw: Buffer, contentEnd: number, number: number, result: LineResult): void;
}

type Entry =
  | {
      kind: "lines";
      raws: Buffer[];
      contentEnds: number[];
      numbers: number[];
      results: Promise<LineResult[]>;
    }
  | { kind: "bytes"; bytes: Buffer }
  | { kind: "issue"; place: { line: number }; issue: InputIssue };

/**
 * JSONL lines go to the pool in batches; what is read between batches (a line too long to hold, blank lines) and
 * the batches' results are released to the sink strictly in input order. `drain(inFlight)` after each chunk keeps
 * reading from running too far ahead of the pool.
 */
export class LineBatches {
  readonly inFlight: number;
  readonly #pool: LinePool;
  readonly #sink: LineBatchSink;
  readonly #queue: Entry[] = [];
  #batch = { raws: [] as Buffer[], numbers: [] as number[], contentEnds: [] as number[], size: 0 };

  constructor(pool: LinePool, sink: LineBatchSink) {
    this.#pool = pool;
    this.#sink = sink;
    this.inFlight = Math.max(2, pool.workers * 3);
  }

  /** A JSONL line to work on (`contentEnd`: where its terminator starts). */
  line(raw: Buffer, contentEnd: number, number: number): void {
    const batch = this.#batch;
    batch.raws.push(raw);
    batch.numbers.push(number);
    batch.contentEnds.push(contentEnd);
    batch.size += contentEnd;
    if (batch.size >= BATCH_BYTES || batch.numbers.length >= BATCH_LINES) this.flush();
  }

  /** Bytes kept as they are, after the lines before them. */
  bytes(bytes: Buffer): void {
    this.flush();
    this.#queue.push({ kind: "bytes", bytes });
  }

  /** An issue of a line that is not worked on, after the lines before it. */
  issue(place: { line: number }, issue: InputIssue): void {
    this.flush();
    this.#queue.push({ kind: "issue", place, issue });
  }

  /** Hands the lines gathered so far to the pool. */
  flush(): void {
    const batch = this.#batch;
    if (batch.numbers.length === 0) return;
    const contents = batch.raws.map((raw, i) => raw.subarray(0, batch.contentEnds[i]));
    this.#queue.push({
      kind: "lines",
      raws: batch.raws,
      contentEnds: batch.contentEnds,
      numbers: batch.numbers,
      results: this.#pool.run({ contents, numbers: batch.numbers }),
    });
    this.#batch = { raws: [], numbers: [], contentEnds: [], size: 0 };
  }

  /** Releases entries in order, waiting for their results, until at most `limit` are left. */
  async drain(limit: number): Promise<void> {
    const queue = this.#queue;
    while (queue.length > limit) {
      const entry = queue.shift() as Entry;
      if (entry.kind === "bytes") this.#sink.keep(entry.bytes);
      else if (entry.kind === "issue") this.#sink.unreadable(entry.place, entry.issue);
      else {
        const results = await entry.results;
        results.forEach((result, i) => {
          this.#sink.line(
            entry.raws[i] as Buffer,
            entry.contentEnds[i] as number,
            entry.numbers[i] as number,
            result,
          );
        });
      }
    }
  }
}
