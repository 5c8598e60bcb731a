import { readFile } from "node:fs/promises";
import { describeError } from "./input-source.js";

/** A whole input as text, or why it could not be read. */
export type ReadTextResult = { ok: true; text: string } | { ok: false; message: string };

/**
 * Reads a whole file (or standard input for `-`) as UTF-8 text. Bytes that are not UTF-8 are refused, never
 * decoded into U+FFFD: a template or a conversation read wrong would render a prompt the model never saw. A
 * byte-order mark is kept (the caller decides: JSON drops it, a Jinja template keeps it, as Python's `open` does).
 *
 * @example
 * const read = await readText({ path: "chat_template.jinja" });
 * if (read.ok) render(read.text);
 */
export async function readText(options: {
  path: string;
  stdin?: NodeJS.ReadableStream;
}): Promise<ReadTextResult> {
  let bytes: Buffer;
  try {
    if (options.path === "-") {
      const chunks: Buffer[] = [];
      for await (const chunk of (options.stdin ?? process.stdin) as AsyncIterable<Buffer | string>)
        chunks.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
      bytes = Buffer.concat(chunks);
    } else {
      bytes = await readFile(options.path);
    }
  } catch (error) {
    return { ok: false, message: describeError(error) };
  }
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
