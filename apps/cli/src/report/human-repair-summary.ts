import { isStandardOutput } from "@toolcall/files/parts";
import type { RepairFileSummary, RepairSummary } from "../pipeline/repair-options.js";
import type { createPainter } from "./colors.js";
import { plural, summaryHead } from "./human-counts.js";
import { skippedLines } from "./skipped-lines.js";

/** The closing lines of a repair for people: changes by rule, then one line per file saying where it went. */
export function humanRepairSummary(
  summary: RepairSummary,
  files: readonly RepairFileSummary[],
  paint: ReturnType<typeof createPainter>,
): string {
  const lines = summaryHead("By rule:", summary.byRule, summary.findingsNotShown, paint);
  for (const file of files) {
    if (file.error) {
      lines.push(
        `${paint("bold", file.file)}: ${paint("red", `not repaired (${file.error.code}): ${file.error.message}`)}`,
      );
      continue;
    }
    const parts = [
      `${plural(file.conversations, "conversation")} read${file.formats.length > 0 ? ` (${file.formats.join(", ")})` : ""}`,
      `${file.changed.toLocaleString("en-US")} changed (${plural(file.changes, "change")})`,
    ];
    if (file.withErrors > 0)
      parts.push(paint("red", `${file.withErrors.toLocaleString("en-US")} with errors left`));
    if (file.passedThrough > 0)
      parts.push(paint("yellow", `${plural(file.passedThrough, "line")} passed through unchanged`));
    let where: string;
    if (!file.written) where = "nothing needed a change: the file is left as it was";
    else if (isStandardOutput(file.output)) where = "written to standard output";
    else where = `written to ${file.output}${file.backup ? ` (original kept as ${file.backup})` : ""}`;
    if (file.journal !== undefined) where += `; journal ${file.journal} (toolcall undo)`;
    lines.push(`${paint("bold", file.file)}: ${parts.join(", ")}; ${paint("green", where)}`);
  }
  lines.push(...skippedLines(summary.skipped, paint));
  if (files.length > 1) {
    const failed = files.filter((file) => file.error !== undefined).length;
    const written = files.filter((file) => file.written).length;
    lines.push(
      `${paint("bold", "Total")}: ${plural(files.length, "file")}, ${plural(summary.conversations, "conversation")} read, ${summary.changed.toLocaleString("en-US")} changed (${plural(summary.changes, "change")}), ${written.toLocaleString("en-US")} written${summary.withErrors > 0 ? paint("red", `, ${summary.withErrors.toLocaleString("en-US")} with errors left`) : ""}${failed > 0 ? paint("red", `, ${plural(failed, "file")} not repaired`) : ""}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
