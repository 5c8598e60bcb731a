import { open } from "node:fs/promises";
import type { InputIssue } from "./input-issue.js";

/** An opened input: its display name, its bytes as they arrive, and its size when known (for progress). */
export interface InputSource {
  /** The path as given, or `-` for standard input. */
  name: string;
  chunks: AsyncIterable<Buffer>;
  /** Bytes in a regular file; `undefined` for standard input and pipes. */
  size?: number;
  close(): Promise<void>;
}

export type OpenInputResult = { ok: true; source: InputSource } | { ok: false; issue: InputIssue };

/** Read size: large enough that per-chunk work is negligible, small enough that memory stays flat. */
export const CHUNK_BYTES = 1 << 20;

/**
 * Opens a file (or standard input for `-`) for streaming. A file that cannot be read is reported as
 * `input_unreadable` before anything is written anywhere.
 *
 * @example
 * const opened = await openInput({ path: "session.jsonl" });
 * if (opened.ok) for await (const chunk of opened.source.chunks) process(chunk);
 */
export async function openInput(options: {
  path: string;
  stdin?: NodeJS.ReadableStream;
}): Promise<OpenInputResult> {
  const { path } = options;
  if (path === "-") {
    const stdin = options.stdin ?? process.stdin;
    return {
      ok: true,
      source: { name: "-", chunks: stdin as AsyncIterable<Buffer>, close: async () => {} },
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
        chunks: stream as AsyncIterable<Buffer>,
        ...(stat.isFile() ? { size: stat.size } : {}),
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
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
