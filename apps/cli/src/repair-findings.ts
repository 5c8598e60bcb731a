import { type SanitizeChange, serializeJson } from "@toolcall/core";
import type { Painter } from "./colors.js";
import type { InputIssue } from "./input-issue.js";

/** One change core made, where it was made. `before` and `after` hold the values replaced: nothing is lost. */
export interface ReportedChange {
  rule: SanitizeChange["rule"];
  messageIndex: number;
  callId?: string;
  status?: string;
  repairs?: string[];
  before?: unknown;
  after?: unknown;
}

/** A conversation that changed, or a line passed through unchanged because it could not be read. */
export type RepairFinding =
  | { file: string; line?: number; kind: "changed"; changes: ReportedChange[] }
  | { file: string; line: number; kind: "passed_through"; issue: InputIssue };

/**
 * Core's change records as the report lists them.
 *
 * @example
 * toReportedChanges(sanitizeHistory(messages).changes)[0]; // { rule: "arguments_canonicalized", messageIndex: 2, callId: "c1", … }
 */
export function toReportedChanges(changes: readonly SanitizeChange[]): ReportedChange[] {
  return changes.map((change) => {
    const reported: ReportedChange = { rule: change.rule, messageIndex: change.messageIndex };
    if (change.toolCallId !== undefined) reported.callId = change.toolCallId;
    if (change.status !== undefined) reported.status = change.status;
    if (change.repairs !== undefined && change.repairs.length > 0) reported.repairs = change.repairs;
    if (change.before !== undefined) reported.before = change.before;
    if (change.after !== undefined) reported.after = change.after;
    return reported;
  });
}

/**
 * A finding as one JSON text. Numbers read losslessly keep every digit (core's serializer, not `JSON.stringify`).
 *
 * @example
 * findingJson({ file: "a.jsonl", line: 4, kind: "passed_through", issue: { code: "line_invalid_json", message: "…" } });
 */
export function findingJson(finding: RepairFinding): string {
  const written = serializeJson(finding);
  return written.ok ? written.text : JSON.stringify({ ...finding, error: written.error });
}

function shortValue(value: unknown, width = 70): string {
  const written = serializeJson(value);
  const text = written.ok ? written.text : String(value);
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/**
 * A finding as people read it: the place, then one line per change (rule, repairs applied, before -> after).
 *
 * @example
 * humanRepairFinding(finding, paint);
 * // "a.json\n  messages[2]  call_w1  arguments_canonicalized (markdown-fence)  \"```json…\" -> \"{…}\""
 */
export function humanRepairFinding(finding: RepairFinding, paint: Painter): string {
  const where = finding.line === undefined ? finding.file : `${finding.file}:${finding.line}`;
  if (finding.kind === "passed_through") {
    return `${paint("bold", where)}  ${paint("yellow", "passed through unchanged")}  ${paint("bold", finding.issue.code)}  ${finding.issue.message}\n`;
  }
  const lines = [paint("bold", where)];
  for (const change of finding.changes) {
    const call = change.callId === undefined ? "" : `  ${paint("cyan", change.callId)}`;
    const repairs = change.repairs ? ` (${change.repairs.join(", ")})` : "";
    const values: string[] = [];
    if (change.before !== undefined) values.push(paint("red", shortValue(change.before)));
    if (change.after !== undefined) values.push(paint("green", shortValue(change.after)));
    lines.push(
      `  messages[${change.messageIndex}]${call}  ${paint("bold", change.rule)}${repairs}  ${values.join(" -> ")}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
