import { createHash, type Hash } from "node:crypto";
import { open } from "node:fs/promises";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import type { InputIssue } from "./input-issue.js";

/**
 * An opened input: its display name, its bytes as they arrive, and its size when known (for progress).
 *
 * @example
 * const opened = await openInput({ path: "session.jsonl" });
 * if (opened.ok) for await (const chunk of opened.source.chunks) console.log(chunk.length);
 */
export interface InputSource {
  /** The path as given, or `-` for standard input. */
  name: string;
  chunks: AsyncIterable<Buffer>;
  /** Bytes in a regular file; `undefined` for standard input, pipes and gzip files (whose size says little). */
  size?: number;
  /** True once the first bytes showed gzip's magic number: `chunks` are then the decompressed bytes. */
  readonly gzip: boolean;
  /** The SHA-256 of every (decompressed) byte read so far: complete once `chunks` is exhausted. */
  readonly sha256: () => string;
  close(): Promise<void>;
}

/**
 * Chunks as read, decompressed when the first bytes are gzip's magic number (`1f 8b`), hashed as they pass: a
 * `.gz` file (or a gzip stream on standard input) reads as its contents.
 */
function decoded(
  source: AsyncIterable<Buffer | string>,
  hash: Hash | undefined,
  onGzip: () => void,
): AsyncIterable<Buffer> {
  return {
    async *[Symbol.asyncIterator]() {
      const iterator = source[Symbol.asyncIterator]();
      const first = await iterator.next();
      if (first.done === true) return;
      const head = typeof first.value === "string" ? Buffer.from(first.value, "utf8") : first.value;
      let body: AsyncIterable<Buffer | string>;
      if (head[0] === 0x1f && head[1] === 0x8b) {
        onGzip();
        const rest = async function* () {
          yield head;
          for (let next = await iterator.next(); next.done !== true; next = await iterator.next())
            yield next.value;
        };
        body = Readable.from(rest()).pipe(createGunzip({ chunkSize: CHUNK_BYTES }));
      } else {
        body = (async function* () {
          yield head;
          for (let next = await iterator.next(); next.done !== true; next = await iterator.next())
            yield next.value;
        })();
      }
      for await (const chunk of body) {
        const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
        hash?.update(bytes);
        yield bytes;
      }
    },
  };
}

/**
 * What {@link openInput} gives: the opened source, or the issue that kept the file from being read (`input_unreadable`, `input_empty`…).
 *
 * @example
 * const opened: OpenInputResult = await openInput({ path: "missing.jsonl" });
 * if (!opened.ok) console.log(opened.issue.code); // "input_unreadable"
 */
export type OpenInputResult = { ok: true; source: InputSource } | { ok: false; issue: InputIssue };

/** Read size: large enough that per-chunk work is negligible, small enough that memory stays flat. */
export const CHUNK_BYTES = 1 << 20;

/**
 * Opens a file (or standard input for `-`) for streaming, decompressing gzip (told by its magic number, whatever the
 * name). A file that cannot be read is reported as `input_unreadable` before anything is written anywhere.
 *
 * @example
 * const opened = await openInput({ path: "session.jsonl" });
 * if (opened.ok) for await (const chunk of opened.source.chunks) process(chunk);
 */
export async function openInput(options: {
  path: string;
  stdin?: NodeJS.ReadableStream;
  /** Hash what is read (for a journal's trailer). */
  hash?: boolean;
}): Promise<OpenInputResult> {
  const { path } = options;
  const hash = options.hash === true ? createHash("sha256") : undefined;
  const state = { gzip: false };
  const sha256 = () => hash?.copy().digest("hex") ?? "";
  if (path === "-") {
    const stdin = options.stdin ?? process.stdin;
    return {
      ok: true,
      source: {
        name: "-",
        chunks: decoded(stdin as AsyncIterable<Buffer>, hash, () => {
          state.gzip = true;
        }),
        get gzip() {
          return state.gzip;
        },
        sha256,
        close: async () => {},
      },
    };
  }
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch (error) {
    return { ok: false, issue: { code: "input_unreadable", message: describeError(error) } };
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) {
      await handle.close();
      return { ok: false, issue: { code: "input_unreadable", message: "is a directory" } };
    }
    const stream = handle.createReadStream({ highWaterMark: CHUNK_BYTES, autoClose: true });
    return {
      ok: true,
      source: {
        name: path,
        chunks: decoded(stream as AsyncIterable<Buffer>, hash, () => {
          state.gzip = true;
        }),
        ...(stat.isFile() && !path.endsWith(".gz") ? { size: stat.size } : {}),
        get gzip() {
          return state.gzip;
        },
        sha256,
        close: async () => {
          stream.destroy();
        },
      },
    };
  } catch (error) {
    await handle.close().catch(() => {});
    return { ok: false, issue: { code: "input_unreadable", message: describeError(error) } };
  }
}

/**
 * A short, stable description of a file system error (`no such file`, `permission denied`…).
 *
 * @example
 * describeError(Object.assign(new Error("x"), { code: "ENOENT" })); // "no such file or directory"
 */
export function describeError(error: unknown): string {
  // A write that failed names its file (an output or the journal) before what went wrong.
  if (error instanceof Error && error.name === "OutputWriteError" && "path" in error)
    return `${String(error.path)}: ${describeError(error.cause)}`;
  const code = (error as { code?: unknown })?.code;
  switch (code) {
    case "ENOENT":
      return "no such file or directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "is a directory";
    case "ENOSPC":
      return "no space left on device";
    case "ELOOP":
      return "too many levels of symbolic links (a chain of links that loops)";
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
