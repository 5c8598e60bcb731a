import { readFile } from "node:fs/promises";
import { clashingFiles } from "../input/file-identity.js";
import { describeError, openInput } from "../input/input-source.js";
import { readJournal } from "../output/journal.js";
import { type OutputTarget, openOutputFile } from "../output/output-target.js";
import { restoreInput } from "../output/restore-input.js";

/**
 * What {@link undoFile} gives back: the input of a repair, or why nothing was written (`journal_unreadable`,
 * `output_changed`: the repaired file is not what the repair wrote, `restored_differs`, `output_is_journal`,
 * `output_unwritable`, or an input issue code).
 *
 * @example
 * const undone: UndoFileResult = await undoFile({ path: "fixed.jsonl", journal: "fixed.jsonl.journal", output: "again.jsonl" });
 * if (undone.ok) console.log(undone.bytes);
 */
export type UndoFileResult =
  | { ok: true; bytes: number; replacements: number }
  | { ok: false; issue: { code: string; message: string } };

/**
 * Rebuilds the input of {@link repairFile} (or `toolcall repair`) byte for byte from its output and its journal, as
 * `toolcall undo` does: the repaired file must be exactly what the repair wrote and the result exactly what it read
 * (both SHA-256s are in the journal); otherwise nothing is written and the result says why.
 *
 * @example
 * const undone = await undoFile({ path: "fixed.jsonl", journal: "fixed.jsonl.journal", output: "original.jsonl" });
 * if (!undone.ok) console.log(undone.issue.code);
 */
export async function undoFile(options: {
  path: string;
  journal: string;
  output: string;
}): Promise<UndoFileResult> {
  const fail = (code: string, message: string) => ({ ok: false as const, issue: { code, message } });
  let text: string;
  try {
    text = await readFile(options.journal, "utf8");
  } catch (error) {
    return fail("journal_unreadable", `${options.journal}: ${describeError(error)}`);
  }
  const journal = readJournal(text);
  if (!journal.ok) return fail("journal_unreadable", `${options.journal}: ${journal.message}`);
  if ((await clashingFiles({ files: { output: options.output, journal: options.journal } })) !== undefined)
    return fail("output_is_journal", `${options.output} is the journal ${options.journal}`);
  const opened = await openInput({ path: options.path, hash: true });
  if (!opened.ok) return { ok: false, issue: opened.issue };
  let target: OutputTarget | undefined;
  try {
    target = (await openOutputFile({ destination: options.output, gzip: options.output.endsWith(".gz") }))
      .target;
    const rebuilt = await restoreInput({
      source: opened.source,
      entries: journal.entries,
      trailer: journal.trailer,
      target,
    });
    if (!rebuilt.ok) {
      await target.abort();
      return fail(
        rebuilt.code,
        rebuilt.code === "input_unreadable" ? describeError(rebuilt.error) : rebuilt.message,
      );
    }
    await target.commit();
    return { ok: true, bytes: rebuilt.bytes, replacements: journal.entries.length };
  } catch (error) {
    await target?.abort().catch(() => {});
    return fail("output_unwritable", `${options.output}: ${describeError(error)}`);
  } finally {
    await opened.source.close();
  }
}
