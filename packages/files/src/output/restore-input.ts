import { createHash } from "node:crypto";
import type { InputSource } from "../input/input-source.js";
import type { JournalEntry, JournalTrailer } from "./journal.js";
import type { OutputTarget } from "./output-target.js";

/**
 * The input of a repair rebuilt, or why it could not be (nothing is committed then).
 *
 * @example
 * const rebuilt: RestoreResult = await restoreInput({ source, entries, trailer, target });
 * if (!rebuilt.ok) await target.abort();
 */
export type RestoreResult =
  | { ok: true; bytes: number }
  | {
      ok: false;
      code: "output_changed" | "restored_differs" | "input_unreadable";
      message: string;
      error?: unknown;
    };

function original(entry: JournalEntry): Buffer {
  return entry.original !== undefined
    ? Buffer.from(entry.original, "utf8")
    : Buffer.from(entry.originalBase64 ?? "", "base64");
}

/**
 * Writes a repair's input to `target`, rebuilt from the repaired bytes (`source`, opened with `hash: true`) and the
 * journal's entries: outside an entry the repaired bytes are the input's, an entry's bytes give way to its original.
 * The repaired file must be what the repair wrote and the result what it read (both SHA-256s are in the trailer);
 * otherwise the result says which, and the caller aborts the target. It does not commit or close anything.
 *
 * @example
 * const read = readJournal(text);
 * if (read.ok) await restoreInput({ source, entries: read.entries, trailer: read.trailer, target });
 */
export async function restoreInput(options: {
  source: InputSource;
  entries: readonly JournalEntry[];
  trailer: JournalTrailer;
  target: OutputTarget;
}): Promise<RestoreResult> {
  const { source, entries, trailer, target } = options;
  const restored = createHash("sha256");
  let restoredBytes = 0;
  const emit = (bytes: Buffer) => {
    if (bytes.length === 0) return;
    target.write(bytes);
    restored.update(bytes);
    restoredBytes += bytes.length;
  };
  let offset = 0;
  let next = 0;
  const startEntries = () => {
    while (
      next < entries.length &&
      (entries[next] as JournalEntry).at === offset &&
      (entries[next] as JournalEntry).length === 0
    ) {
      emit(original(entries[next] as JournalEntry));
      next++;
    }
  };
  let inside: JournalEntry | undefined;
  try {
    startEntries();
    for await (const chunk of source.chunks) {
      let at = 0;
      while (at < chunk.length) {
        if (inside !== undefined) {
          const end = inside.at + inside.length;
          const take = Math.min(chunk.length - at, end - offset);
          at += take;
          offset += take;
          if (offset === end) {
            inside = undefined;
            startEntries();
          }
          continue;
        }
        const entry = entries[next];
        const until = entry === undefined ? Number.POSITIVE_INFINITY : entry.at;
        const take = Math.min(chunk.length - at, until - offset);
        emit(chunk.subarray(at, at + take));
        at += take;
        offset += take;
        if (entry !== undefined && offset === entry.at) {
          emit(original(entry));
          next++;
          if (entry.length > 0) inside = entry;
          else startEntries();
        }
      }
      const waiting = target.flushIfFull();
      if (waiting !== undefined) await waiting;
    }
    if (inside === undefined) startEntries();
  } catch (error) {
    return { ok: false, code: "input_unreadable", message: String(error), error };
  }
  const repairedSha = source.sha256();
  if (offset !== trailer.output.bytes || repairedSha !== trailer.output.sha256 || next < entries.length) {
    return {
      ok: false,
      code: "output_changed",
      message: `${source.name} is not the file this journal's repair wrote (${offset} bytes, SHA-256 ${repairedSha.slice(0, 12)}…; the journal expects ${trailer.output.bytes} bytes, ${trailer.output.sha256.slice(0, 12)}…): nothing written`,
    };
  }
  const restoredSha = restored.digest("hex");
  if (restoredBytes !== trailer.input.bytes || restoredSha !== trailer.input.sha256) {
    return {
      ok: false,
      code: "restored_differs",
      message: `the rebuilt bytes do not match the repair's input (SHA-256 ${restoredSha.slice(0, 12)}…): nothing written`,
    };
  }
  return { ok: true, bytes: restoredBytes };
}
