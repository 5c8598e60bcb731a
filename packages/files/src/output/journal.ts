import { isUtf8 } from "node:buffer";
import { createHash, type Hash } from "node:crypto";
import type { OutputTarget } from "./output-target.js";

/**
 * One replacement a repair made: at `at` in the output, `length` bytes stand where the original bytes were.
 *
 * @example
 * const read = readJournal(text);
 * if (read.ok) for (const entry of read.entries) console.log(entry.at, entry.length, entry.original);
 */
export interface JournalEntry {
  /** Byte offset in the (decompressed) output. */
  at: number;
  /** Bytes of the output at `at` that replaced the original. */
  length: number;
  /** The original bytes, as text when they are UTF-8 (always, for what a repair rewrites), else base64. */
  original?: string;
  originalBase64?: string;
  /** For people: the line or record it was, and the rules that changed it. */
  place?: string;
  rules?: string[];
}

/** The journal's last line: what the repair read and wrote, so `undo` can prove it gives the input back. */
export interface JournalTrailer {
  journal: "toolcall";
  version: 1;
  input: { name: string; bytes: number; sha256: string };
  output: { bytes: number; sha256: string; gzip: boolean };
  entries: number;
}

/**
 * The bytes a repair writes, as a sequence of kept input and replacements, counted and hashed as they go; each
 * replacement goes to the journal with the original bytes it replaced, so the input can be rebuilt from the output.
 *
 * @example
 * const out = new JournaledOutput({ target, journal });
 * out.keep(Buffer.from('{"ok":1}\n'));
 * out.replace(Buffer.from('{"a":""}'), Buffer.from('{"a":"{}"}'), { place: "line 2" });
 */
export class JournaledOutput {
  readonly #target: OutputTarget;
  readonly #journal: OutputTarget | undefined;
  // Hashed only for a journal's trailer: without one, nothing needs the digest.
  readonly #hash: Hash | undefined;
  #bytes = 0;
  #entries = 0;

  constructor(options: { target: OutputTarget; journal?: OutputTarget }) {
    this.#target = options.target;
    this.#journal = options.journal;
    this.#hash = options.journal === undefined ? undefined : createHash("sha256");
  }

  /** Input bytes written as they were. */
  keep(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.#target.write(bytes);
    this.#hash?.update(bytes);
    this.#bytes += bytes.length;
  }

  /** New bytes where the input had `original` (either may be empty: an insertion, a removal). */
  replace(original: Buffer, replacement: Buffer, meta: { place?: string; rules?: string[] } = {}): void {
    if (this.#journal !== undefined) {
      const entry: JournalEntry = {
        at: this.#bytes,
        length: replacement.length,
        ...(isUtf8(original)
          ? { original: original.toString("utf8") }
          : { originalBase64: original.toString("base64") }),
        ...(meta.place !== undefined ? { place: meta.place } : {}),
        ...(meta.rules !== undefined && meta.rules.length > 0 ? { rules: meta.rules } : {}),
      };
      this.#journal.write(`${JSON.stringify(entry)}\n`);
      this.#entries++;
    }
    if (replacement.length > 0) {
      this.#target.write(replacement);
      this.#hash?.update(replacement);
    }
    this.#bytes += replacement.length;
  }

  /**
   * Output that was written elsewhere (by a worker, at its offset): `bytes` long, its replacements at offsets counted
   * from its own start. Its bytes reach the digest by {@link hashWritten}, in order.
   */
  placed(part: { bytes: number; entries: readonly JournalEntry[] }): void {
    for (const entry of part.entries) {
      this.#journal?.write(`${JSON.stringify({ ...entry, at: this.#bytes + entry.at })}\n`);
      if (this.#journal !== undefined) this.#entries++;
    }
    this.#bytes += part.bytes;
  }

  /** True when replacements are journaled (the bytes they replaced are wanted). */
  get journaling(): boolean {
    return this.#journal !== undefined;
  }

  /** True when the written bytes are hashed (for a journal), so bytes written elsewhere must be read back. */
  get hashing(): boolean {
    return this.#hash !== undefined;
  }

  /** Bytes written elsewhere, given in output order, for the digest. */
  hashWritten(bytes: Buffer): void {
    this.#hash?.update(bytes);
  }

  get bytes(): number {
    return this.#bytes;
  }

  get entries(): number {
    return this.#entries;
  }

  /** The trailer line that closes the journal (written by the caller with {@link writeTrailer}). */
  trailer(input: { name: string; bytes: number; sha256: string }, gzip: boolean): JournalTrailer {
    return {
      journal: "toolcall",
      version: 1,
      input,
      output: { bytes: this.#bytes, sha256: this.#hash?.copy().digest("hex") ?? "", gzip },
      entries: this.#entries,
    };
  }

  /** Writes the trailer to the journal. */
  writeTrailer(trailer: JournalTrailer): void {
    this.#journal?.write(`${JSON.stringify(trailer)}\n`);
  }

  /** Backpressure for both outputs. */
  flushIfFull(): Promise<void> | undefined {
    const a = this.#target.flushIfFull();
    const b = this.#journal?.flushIfFull();
    if (a === undefined) return b;
    return b === undefined ? a : Promise.all([a, b]).then(() => {});
  }
}

/**
 * A journal read back: its entries in output order and its trailer.
 *
 * @example
 * const read: ReadJournalResult = readJournal(await readFile("out.jsonl.journal", "utf8"));
 */
export type ReadJournalResult =
  | { ok: true; entries: JournalEntry[]; trailer: JournalTrailer }
  | { ok: false; message: string };

function isEntry(value: unknown): value is JournalEntry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    Number.isSafeInteger(entry.at) &&
    Number.isSafeInteger(entry.length) &&
    (typeof entry.original === "string" || typeof entry.originalBase64 === "string")
  );
}

/**
 * Reads a journal's text: one entry per line, in output order, and the trailer last. Anything else is refused with
 * the line it is on.
 *
 * @example
 * const read = readJournal(text);
 * if (read.ok) console.log(read.trailer.input.sha256);
 */
export function readJournal(text: string): ReadJournalResult {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const entries: JournalEntry[] = [];
  let trailer: JournalTrailer | undefined;
  let end = 0;
  for (const [index, line] of lines.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { ok: false, message: `line ${index + 1} of the journal is not JSON` };
    }
    const record = value as Record<string, unknown>;
    if (record?.journal === "toolcall") {
      if (index !== lines.length - 1)
        return { ok: false, message: "the journal's trailer is not its last line" };
      trailer = value as JournalTrailer;
      continue;
    }
    if (!isEntry(value) || value.at < end) {
      return { ok: false, message: `line ${index + 1} of the journal is not an entry in output order` };
    }
    end = value.at + value.length;
    entries.push(value);
  }
  if (trailer === undefined || trailer.version !== 1) {
    return { ok: false, message: "the journal has no trailer (it is cut off, or not a toolcall journal)" };
  }
  return { ok: true, entries, trailer };
}
