import { open } from "node:fs/promises";
import { describeError } from "@toolcall/files/parts";
import { formatBytes } from "../report/progress.js";

/** A whole input as text, or why it could not be read. */
export type ReadTextResult = { ok: true; text: string } | { ok: false; message: string };

/**
 * Reads a whole file (or standard input for `-`) as UTF-8 text. Bytes that are not UTF-8 are refused, never
 * decoded into U+FFFD: a template or a conversation read wrong would render a prompt the model never saw. A
 * byte-order mark is kept (the caller decides: JSON drops it, a Jinja template keeps it, as Python's `open` does).
 * With `maxBytes`, a longer input is refused (a regular file by its size, before reading; a pipe as soon as it
 * passes the limit), so a wrong file costs no more than the limit; with `refuseNul`, a NUL byte marks a binary file.
 *
 * @example
 * const read = await readText({ path: "chat_template.jinja" });
 * if (read.ok) render(read.text);
 */
export async function readText(options: {
  path: string;
  stdin?: NodeJS.ReadableStream;
  maxBytes?: number;
  refuseNul?: boolean;
}): Promise<ReadTextResult> {
  const limit = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const size = (bytes: number) => formatBytes(bytes, { binary: true });
  const tooLong = (bytes?: number) => ({
    ok: false as const,
    message: `is ${bytes === undefined ? `longer than ${size(limit)}` : size(bytes)}: at most ${size(limit)} is read`,
  });
  const chunks: Buffer[] = [];
  let length = 0;
  const add = (chunk: Buffer | string) => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    chunks.push(bytes);
    length += bytes.length;
    return length <= limit;
  };
  try {
    if (options.path === "-") {
      for await (const chunk of (options.stdin ?? process.stdin) as AsyncIterable<Buffer | string>)
        if (!add(chunk)) return tooLong();
    } else {
      const handle = await open(options.path, "r");
      try {
        const stat = await handle.stat();
        if (stat.isDirectory()) return { ok: false, message: "is a directory" };
        if (stat.isFile() && stat.size > limit) return tooLong(stat.size);
        // Read in pieces (a FIFO or a device has no size to check first).
        for (;;) {
          const buffer = Buffer.allocUnsafe(1 << 20);
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
          if (bytesRead === 0) break;
          if (!add(buffer.subarray(0, bytesRead))) return tooLong();
        }
      } finally {
        await handle.close();
      }
    }
  } catch (error) {
    return { ok: false, message: describeError(error) };
  }
  const bytes = Buffer.concat(chunks, length);
  if (options.refuseNul === true && bytes.includes(0))
    return { ok: false, message: `holds a NUL byte at offset ${bytes.indexOf(0)}: a binary file, not text` };
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { ok: false, message: "is not UTF-8 text" };
  }
}

/**
 * The text without a leading byte-order mark (JSON readers skip it).
 *
 * @example
 * withoutBom("\uFEFF{}"); // "{}"
 */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
