import type { RecordIssue } from "@toolcall/core";
import type { RecordChange } from "@toolcall/core/kit";
import { serializeJson } from "@toolcall/core/kit";
import type { InputIssue } from "@toolcall/files";
import { verdictLine, verdictOf } from "./check-findings.js";
import type { Painter } from "./colors.js";

/** One change core made, where it was made (the engine's record of it). */
export type ReportedChange = RecordChange;

interface Where {
  file: string;
  line?: number;
  /** The element of a JSON array of records. */
  record?: number;
}

/**
 * A record that changed (with what is still wrong after it), a record whose format cannot hold the repair, a record
 * with errors no rule repairs, or a part of the input passed through unread.
 */
export type RepairFinding =
  | (Where & { kind: "changed"; format: string; changes: ReportedChange[]; remaining: RecordIssue[] })
  | (Where & {
      kind: "not_rewritable";
      format: string;
      reason: string;
      changes: ReportedChange[];
      remaining: RecordIssue[];
    })
  | (Where & { kind: "unrepaired"; format: string; remaining: RecordIssue[] })
  | (Where & { kind: "passed_through"; issue: InputIssue });

/**
 * A finding as one JSON text: every value whole (numbers read exactly keep every digit, through core's serializer).
 *
 * @example
 * findingJson({ file: "a.jsonl", line: 4, kind: "passed_through", issue: { code: "line_invalid_json", message: "…" } });
 */
export function findingJson(finding: RepairFinding): string {
  const written = serializeJson(finding);
  return written.success ? written.value : JSON.stringify({ ...finding, error: written.error });
}

function shortValue(value: unknown, width = 70): string {
  const written = serializeJson(value);
  const text = written.success ? written.value : String(value);
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/**
 * A finding as people read it: the place, one line per change (its place in the record, rule, repairs applied,
 * before -> after, shortened: the JSON report and the journal hold them whole), then what is still wrong.
 *
 * @example
 * humanRepairFinding(finding, paint);
 * // "a.json\n  messages[2]  call_w1  arguments_canonicalized (markdown-fence)  \"```json…\" -> \"{…}\""
 */
export function humanRepairFinding(finding: RepairFinding, paint: Painter): string {
  const where = `${finding.file}${finding.line !== undefined ? `:${finding.line}` : ""}${finding.record !== undefined ? `[${finding.record}]` : ""}`;
  if (finding.kind === "passed_through") {
    return `${paint("bold", where)}  ${paint("yellow", "passed through unchanged")}  ${paint("bold", finding.issue.code)}  ${finding.issue.message}\n`;
  }
  const lines = [`${paint("bold", where)}${paint("dim", `  (${finding.format})`)}`];
  if (finding.kind === "not_rewritable") {
    lines.push(`  ${paint("yellow", "kept as it was: record_not_rewritable")}  ${finding.reason}`);
  }
  if (finding.kind !== "unrepaired") {
    for (const change of finding.changes) {
      const call = change.callId === undefined ? "" : `  ${paint("cyan", change.callId)}`;
      const repairs = change.repairs ? ` (${change.repairs.join(", ")})` : "";
      const values: string[] = [];
      if (change.before !== undefined) values.push(paint("red", shortValue(change.before)));
      if (change.after !== undefined) values.push(paint("green", shortValue(change.after)));
      const place = change.place ?? `messages[${change.messageIndex}]`;
      lines.push(`  ${place}${call}  ${paint("bold", change.rule)}${repairs}  ${values.join(" -> ")}`);
    }
  }
  const errors = finding.remaining.filter((found) => found.severity === "error");
  if (errors.length > 0) {
    for (const found of errors) {
      lines.push(
        `  ${paint("red", "still   ")}  ${paint("bold", found.code)}  ${found.place ?? ""}  ${found.message}`,
      );
    }
    lines.push(`  ${verdictLine(verdictOf(finding.remaining), finding.remaining, paint)}`);
  }
  return `${lines.join("\n")}\n`;
}
