import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { parseJson } from "@toolcall/core";
import type { ConversationFormat } from "@toolcall/core/kit";
import type { JournalEntry, JournaledOutput } from "../output/journal.js";
import type { ProcessResult, RecordHandler } from "../pipeline/process-input.js";
import { formatById } from "../records/formats.js";
import { RecordTally } from "../records/record-tally.js";
import type { RecordData } from "../records/record-work.js";
import type { RangeEntry, RangeEvent, RangeResult } from "./range-types.js";
import type { RangeWorkers } from "./worker-pool.js";

/** Bytes of input per range: small enough to balance two workers and bound memory, large enough to be worth a trip. */
export const RANGE_BYTES = 1 << 20;

/**
 * The range size in effect: {@link RANGE_BYTES}, or `TOOLCALL_RANGE_BYTES` (at least 1), which the tests set to put
 * range boundaries inside lines, terminators and byte-order marks of small files.
 */
export function rangeBytes(): number {
  const asked = Number(process.env.TOOLCALL_RANGE_BYTES);
  return Number.isSafeInteger(asked) && asked >= 1 ? asked : RANGE_BYTES;
}

/** What the main thread counts of a ranged run (the tests read it: work is counted, never timed). */
export interface RangedWork {
  ranges: number;
  /** Input bytes the main thread read (only to hash them for a journal). */
  mainThreadBytesRead: number;
  /** Each worker's CPU seconds when the file was done (Linux only; the bench splits a run's CPU by thread). */
  workerCpuSeconds?: number[];
}

/**
 * Works on a JSONL file as byte ranges: each worker reads the lines that start in its range, checks or repairs
 * them, and writes its output itself at the offset the main thread gives it once every range before is known. The
 * main thread reads none of the input (but to hash it for a journal's trailer) and writes none of the output: it
 * releases each range's events to the handler and its replacements to the journal, in input order, so the report,
 * the output and the journal are the ones one thread gives.
 *
 * @example
 * const result = await processRanges({ path, size, ranges: pool.ranges, context, handler, maxLineBytes });
 */
export async function processRanges(options: {
  path: string;
  size: number;
  ranges: RangeWorkers;
  handler: RecordHandler;
  maxLineBytes: number;
  /** Ranges worked on at once (each worker holds at most its outputs until they are placed). */
  inFlight: number;
  /** The repair's output: the journal, and the file workers write into at their offsets. */
  output?: { journaled: JournaledOutput; file: string };
  /** Hash the input as it is (for a journal's trailer). */
  hashInput?: boolean;
  afterChunk?(progress: { bytes: number; lines: number }): Promise<void> | undefined;
  work?: RangedWork;
}): Promise<ProcessResult & { sha256?: string }> {
  const { handler, output, ranges, size } = options;
  const step = rangeBytes();
  const tally = new RecordTally(handler);
  const formatOf = (id: string) => formatById(id) as ConversationFormat;
  const work = options.work ?? { ranges: 0, mainThreadBytesRead: 0 };
  const inputHash = options.hashInput === true ? hashFile(options.path, work) : undefined;

  let line = 0;
  let bytes = 0;
  let outputAt = 0;
  let readBack: Promise<void> = Promise.resolve();
  // The output as written so far, read back for the digest (opened once, when a journal wants it).
  const written = output?.journaled.hashing === true ? await open(output.file, "r") : undefined;
  const placed: Array<Promise<unknown>> = [];
  const waiting: Array<Promise<{ id: number; result: RangeResult }>> = [];
  let next = 0;
  const dispatch = () => {
    while (waiting.length < options.inFlight && next < size) {
      const start = next;
      next = Math.min(size, start + step);
      work.ranges++;
      waiting.push(
        ranges.work({
          path: options.path,
          start,
          end: next,
          size,
          maxLineBytes: options.maxLineBytes,
          write: output !== undefined,
          journal: output?.journaled.journaling === true,
        }),
      );
    }
  };

  const release = (result: RangeResult) => {
    for (const event of result.events) releaseEvent(event);
    if (output === undefined) return;
    output.journaled.placed({
      bytes: result.outputBytes,
      entries: result.entries.map((entry) => journalEntry(entry, line)),
    });
  };
  const releaseEvent = (event: RangeEvent) => {
    switch (event.t) {
      case "quiet": {
        const format = formatOf(event.format);
        event.lines.forEach((n, i) => {
          tally.jsonLines++;
          tally.record(format);
          const conversations = event.conversations[i] as number;
          const data: RecordData =
            event.kind === "check"
              ? { kind: "check", conversations, issues: [] }
              : { kind: "repair", conversations, changes: [], remaining: [], rules: [] };
          handler.consume(format, { line: line + n }, data);
        });
        return;
      }
      case "record": {
        tally.jsonLines++;
        const format = formatOf(event.format);
        tally.record(format);
        const exact =
          event.exactData === undefined ? undefined : parseJson(event.exactData, { lossless: true });
        handler.consume(
          format,
          { line: line + event.n },
          (exact?.success ? exact.value : event.data) as RecordData,
        );
        return;
      }
      case "unreadable":
        if (event.counted) tally.jsonLines++;
        handler.unreadable({ line: line + event.n }, event.issue);
        return;
      case "unknown":
        if (event.empty) return;
        tally.jsonLines++;
        tally.unknownLine({ line: line + event.n }, event.issue);
        return;
      case "array": {
        tally.jsonLines++;
        if (tally.records === 0) tally.releaseHeld();
        for (const found of event.events) {
          const place = {
            line: line + event.n,
            ...(found.index !== undefined ? { index: found.index } : {}),
          };
          if ("issue" in found) handler.unreadable(place, found.issue);
          else {
            const format = formatOf(found.format);
            tally.record(format);
            handler.consume(format, place, found.data);
          }
        }
        return;
      }
    }
  };

  try {
    dispatch();
    while (waiting.length > 0) {
      const { id, result } = await (waiting.shift() as Promise<{ id: number; result: RangeResult }>);
      release(result);
      if (output !== undefined) {
        const offset = outputAt;
        const place = ranges.place({ id, output: output.file, offset });
        placed.push(place);
        if (written !== undefined) {
          // The digest takes the output in order: each range is read back once its worker has written it.
          const length = result.outputBytes;
          readBack = readBack.then(async () => {
            await place;
            await readInto({
              handle: written,
              offset,
              length,
              take: (chunk) => output.journaled.hashWritten(chunk),
            });
          });
        }
        outputAt += result.outputBytes;
      }
      line += result.lines;
      bytes += result.inputBytes;
      dispatch();
      const paused = options.afterChunk?.({ bytes, lines: line });
      if (paused !== undefined) await paused;
    }
    await Promise.all(placed);
    await readBack;
  } finally {
    // Nothing stays open or held in a worker once the file is done (or the run failed).
    await Promise.allSettled(waiting);
    await readBack.catch(() => {});
    await written?.close();
    const cpu = await ranges.closeFiles();
    if (cpu.every((seconds) => seconds !== undefined)) work.workerCpuSeconds = cpu as number[];
  }
  const summary = { framing: "jsonl" as const, bytes: size, records: tally.records };
  const sha256 = inputHash === undefined ? undefined : await inputHash;
  const issue = tally.failure();
  if (issue !== undefined) return { ok: false, issue, summary };
  return { ok: true, summary, ...(sha256 !== undefined ? { sha256 } : {}) };
}

/** A worker's replacement as the journal writes it: the line's number in the file, the keys in their order. */
function journalEntry(entry: RangeEntry, base: number): JournalEntry {
  return {
    at: entry.at,
    length: entry.length,
    ...(entry.original !== undefined
      ? { original: entry.original }
      : { originalBase64: entry.originalBase64 ?? "" }),
    place: entry.index !== undefined ? `record ${entry.index}` : `line ${base + entry.n}`,
    ...(entry.rules !== undefined ? { rules: entry.rules } : {}),
  };
}

async function hashFile(path: string, work: RangedWork): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    work.mainThreadBytesRead += (chunk as Buffer).length;
  }
  return hash.digest("hex");
}

async function readInto(options: {
  handle: FileHandle;
  offset: number;
  length: number;
  take(chunk: Buffer): void;
}): Promise<void> {
  const { handle, offset, length } = options;
  if (length === 0) return;
  const buffer = Buffer.allocUnsafe(Math.min(length, 1 << 20));
  for (let at = 0; at < length; ) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, length - at), offset + at);
    if (bytesRead === 0) throw new Error(`the output ended at ${offset + at}, before ${offset + length}`);
    options.take(buffer.subarray(0, bytesRead));
    at += bytesRead;
  }
}
