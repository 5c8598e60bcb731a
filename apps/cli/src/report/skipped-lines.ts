import type { SkippedEntry } from "@toolcall/files";
import { SKIPPED_REASONS } from "@toolcall/files/parts";
import type { Painter } from "./colors.js";

/**
 * The lines of a report that say what the walk of a directory did not read, one per entry.
 *
 * @example
 * skippedLines([{ path: "data/latest.jsonl", reason: "symbolic_link" }], paint);
 * // ["data/latest.jsonl: skipped, a symbolic link, not followed (name it to read it)"]
 */
export function skippedLines(skipped: readonly SkippedEntry[], paint: Painter): string[] {
  return skipped.map(
    (entry) =>
      `${paint("bold", entry.path)}: ${paint("yellow", `skipped, ${SKIPPED_REASONS[entry.reason]}`)}`,
  );
}
