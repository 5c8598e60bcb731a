import type { IssueSeverity, RecordIssue } from "@toolcall/core";
import { issuePlace } from "@toolcall/core/kit";
import type { Painter } from "./colors.js";
import { plural } from "./human-counts.js";

/** One issue with its place: core's codes, a format's codes, or the command line's `input_*`/`line_*` codes. */
export type CheckIssue = RecordIssue;

/**
 * What can be said of a conversation: `clean` (no issue of severity error), `errors` (some rule is broken, or a
 * provider named with `--provider` rejects it; each error says which provider profiles reject it), or `unreadable`.
 */
export type Verdict = "clean" | "errors" | "unreadable";

/** A record (or a line, or a file) with issues, where it is. Clean records are counted, not listed. */
export interface CheckFinding {
  file: string;
  line?: number;
  /** The element of a JSON array of records. */
  record?: number;
  format?: string;
  verdict: Verdict;
  issues: CheckIssue[];
}

/**
 * `errors` when any issue is of severity error, else `clean`.
 *
 * @example
 * verdictOf([{ code: "tool_result_pending", severity: "warning", message: "" }]); // "clean"
 */
export function verdictOf(issues: readonly CheckIssue[]): Verdict {
  return issues.some((found) => found.severity === "error") ? "errors" : "clean";
}

const SEVERITY_STYLE = { error: "red", warning: "yellow", info: "cyan" } as const;

/** Profile ids, the first few by name and the rest counted (the JSON report lists them all). */
function names(ids: readonly string[]): string {
  return ids.length <= 6 ? ids.join(", ") : `${ids.slice(0, 5).join(", ")} and ${ids.length - 5} more`;
}

/**
 * The verdict line, honest about what is known: each broken rule once, with the provider profiles that reject it,
 * or that none of those checked does (no claim at all when no profile was checked).
 *
 * @example
 * verdictLine("errors", issues, paint); // "2 errors: tool_result_missing (rejected by openai-chat, anthropic, …); unknown_tool (no provider profile checked rejects it)"
 */
export function verdictLine(verdict: Verdict, issues: readonly CheckIssue[], paint: Painter): string {
  const warnings = issues.filter((found) => found.severity === "warning").length;
  const tail = warnings > 0 ? `, ${plural(warnings, "warning")}` : "";
  switch (verdict) {
    case "clean":
      return issues.length === 0
        ? paint("green", "clean: no issues")
        : paint("green", `clean: no errors${tail}`);
    case "errors": {
      const errors = issues.filter((found) => found.severity === "error");
      const codes = new Map<string, string[] | undefined>();
      for (const found of errors) {
        if (!codes.has(found.code)) codes.set(found.code, found.refusedBy === undefined ? undefined : []);
        const known = codes.get(found.code);
        if (known !== undefined)
          for (const id of found.refusedBy ?? []) if (!known.includes(id)) known.push(id);
      }
      const parts = [...codes].map(([code, refusedBy]) => {
        if (refusedBy === undefined) return code;
        return refusedBy.length > 0
          ? `${code} (rejected by ${names(refusedBy)})`
          : `${code} (no provider profile checked rejects it)`;
      });
      return paint("red", `${plural(errors.length, "error")}${tail}: ${parts.join("; ")}`);
    }
    case "unreadable":
      return paint("red", "unreadable: nothing in it was checked");
    default: {
      const never: never = verdict;
      return never;
    }
  }
}

/**
 * A finding as people read it: where (file, line or record, format), one line per issue (severity, code, place,
 * call id, message), then the verdict.
 *
 * @example
 * humanFinding({ file: "s.json", verdict: "errors", issues: [...] }, paint);
 */
export function humanFinding(finding: CheckFinding, paint: Painter): string {
  const where = `${finding.file}${finding.line !== undefined ? `:${finding.line}` : ""}${finding.record !== undefined ? `[${finding.record}]` : ""}`;
  const lines = [`${paint("bold", where)}${finding.format ? paint("dim", `  (${finding.format})`) : ""}`];
  for (const found of finding.issues) {
    const at = issuePlace(found);
    const place = at === undefined ? "" : `  ${at}`;
    const label = found.label === undefined || at?.startsWith(found.label) ? "" : `  ${found.label}`;
    const call = found.callId === undefined ? "" : `  ${paint("cyan", found.callId)}`;
    const severity = found.severity as IssueSeverity;
    lines.push(
      `  ${paint(SEVERITY_STYLE[severity], severity.padEnd(7))}  ${paint("bold", found.code.padEnd(22))}${label}${place}${call}  ${found.message}`,
    );
  }
  lines.push(`  ${verdictLine(finding.verdict, finding.issues, paint)}`);
  return `${lines.join("\n")}\n`;
}
