import { open } from "node:fs/promises";
import { type InputSource, openInput } from "../input/input-source.js";
import { type InputFormat, scanInput } from "../input/scan-input.js";
import type { JournaledOutput } from "../output/journal.js";
import type { OutputTarget } from "../output/output-target.js";
import type { WorkContext } from "../records/record-work.js";
import { processRanges, type RangedWork } from "../workers/ranged-input.js";
import { threadCpuSeconds } from "../workers/thread-cpu.js";
import type { LinePool } from "../workers/worker-pool.js";
import { framingQuestions, type ProcessResult, processInput, type RecordHandler } from "./process-input.js";

/** Bytes read to tell a file's framing before it is split into ranges; undecided past them, it is read in one pass. */
const PROBE_BYTES = 64 << 20;

/** Stops the probe's scan once the framing is told. */
class Decided {
  constructor(readonly format: InputFormat) {}
}

/**
 * How a file is framed, told from its first lines the way the full scan tells it (the same questions on the same
 * first bytes), without reading the rest; `undefined` when the first {@link PROBE_BYTES} do not tell.
 */
async function framingOf(options: {
  path: string;
  context: WorkContext;
  maxLineBytes: number;
}): Promise<InputFormat | undefined> {
  const opened = await openInput({ path: options.path });
  if (!opened.ok) return undefined;
  let read = 0;
  try {
    await scanInput({
      chunks: opened.source.chunks,
      maxLineBytes: options.maxLineBytes,
      visitor: {
        ...framingQuestions(options.context.forced),
        format(format) {
          throw new Decided(format);
        },
        unreadableLine() {},
        blankLine() {},
        overlong() {},
        whole() {},
        afterChunk(progress) {
          read = progress.bytes;
          if (read > PROBE_BYTES) throw new Decided("json");
          return undefined;
        },
      },
    });
    return undefined;
  } catch (error) {
    if (error instanceof Decided) return read > PROBE_BYTES ? undefined : error.format;
    throw error;
  } finally {
    await opened.source.close();
  }
}

async function startsWithGzip(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/**
 * Works on one opened input: a JSONL file on disk, with worker threads and an output they can write into (or none),
 * is split into byte ranges that the workers read and write themselves (see {@link processRanges}); anything else
 * (standard input, gzip, a JSON document, a session, a stream log, output to a pipe or through gzip) is read in one
 * pass here and its lines handed to the pool. Both give the same report, output and journal.
 *
 * @example
 * const result = await processFile({ source, pool, context, handler, maxLineBytes, output, target });
 */
export async function processFile(options: {
  source: InputSource;
  pool: LinePool;
  context: WorkContext;
  handler: RecordHandler;
  maxLineBytes: number;
  output?: JournaledOutput;
  target?: OutputTarget;
  /** The input's SHA-256 is wanted (a journal's trailer): it is in the result. */
  hashInput?: boolean;
  afterChunk?(progress: { bytes: number; lines: number }): Promise<void> | undefined;
}): Promise<ProcessResult & { sha256?: string }> {
  const { source, pool } = options;
  const file = options.target === undefined ? undefined : options.target.positionalPath?.();
  const ranged =
    pool.ranges !== undefined &&
    source.name !== "-" &&
    source.size !== undefined &&
    source.size > 0 &&
    (options.output === undefined) === (options.target === undefined) &&
    (options.target === undefined || file !== undefined) &&
    !(await startsWithGzip(source.name).catch(() => true)) &&
    (await framingOf({ path: source.name, context: options.context, maxLineBytes: options.maxLineBytes })) ===
      "jsonl";
  if (ranged && pool.ranges !== undefined && source.size !== undefined) {
    await source.close();
    const work: RangedWork = { ranges: 0, mainThreadBytesRead: 0 };
    const result = await processRanges({
      path: source.name,
      size: source.size,
      ranges: pool.ranges,
      handler: options.handler,
      maxLineBytes: options.maxLineBytes,
      inFlight: Math.max(2, pool.workers * 2),
      ...(options.output !== undefined && file !== undefined
        ? { output: { journaled: options.output, file } }
        : {}),
      ...(options.hashInput === true ? { hashInput: true } : {}),
      ...(options.afterChunk !== undefined ? { afterChunk: options.afterChunk } : {}),
      work,
    });
    reportWork({ file: source.name, ...work });
    return result;
  }
  const result = await processInput({
    chunks: source.chunks,
    maxLineBytes: options.maxLineBytes,
    context: options.context,
    pool,
    handler: options.handler,
    ...(options.output !== undefined ? { output: options.output } : {}),
    ...(options.afterChunk !== undefined ? { afterChunk: options.afterChunk } : {}),
  });
  reportWork({ file: source.name, ranges: 0, mainThreadBytesRead: result.summary.bytes });
  return options.hashInput === true ? { ...result, sha256: source.sha256() } : result;
}

/**
 * With `TOOLCALL_WORK_REPORT=1`, what the main thread did for a file goes to standard error as one JSON line (the
 * tests count it: how many ranges the workers took, how many input bytes the main thread read; the bench reads the
 * CPU seconds of the main thread and of each worker, on Linux).
 */
function reportWork(work: RangedWork & { file: string }): void {
  if (process.env.TOOLCALL_WORK_REPORT !== "1") return;
  const mainThreadCpuSeconds = threadCpuSeconds();
  process.stderr.write(
    `toolcall work: ${JSON.stringify({ ...work, ...(mainThreadCpuSeconds !== undefined ? { mainThreadCpuSeconds } : {}) })}\n`,
  );
}
