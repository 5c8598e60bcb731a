import {
  ISSUE_SEVERITY,
  type IssueCode,
  type IssueSeverity,
  type RepairRule,
  validateHistory,
} from "@toolcall/core";
import {
  type CheckFinding,
  type CheckIssue,
  placeIssues,
  type Verdict,
  verdictOf,
} from "../check-findings.js";
import { createPainter, type Painter } from "../colors.js";
import type { Conversation } from "../conversation.js";
import type { InputIssue } from "../input-issue.js";
import { openInput } from "../input-source.js";
import { JsonReport } from "../json-report.js";
import { formatPath } from "../places.js";
import { Progress } from "../progress.js";
import { ReportStream } from "../report-stream.js";
import { type InputFormat, scanInput } from "../scan-input.js";

export interface CheckOptions {
  files: readonly string[];
  json: boolean;
  quiet: boolean;
  repairs: readonly RepairRule[];
  maxLineBytes: number;
  /** Standard streams (tests and the default run pass their own). */
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

/** Totals for one file. */
export interface CheckFileSummary {
  file: string;
  format?: InputFormat;
  conversations: number;
  accepted: number;
  rejected: number;
  unreadableLines: number;
  /** Set when the file as a whole could not be checked (exit 2). */
  error?: { code: string; message: string };
}

/** Totals over every file. */
export interface CheckSummary {
  files: number;
  conversations: number;
  accepted: number;
  rejected: number;
  unreadableLines: number;
  unreadableFiles: number;
  issues: Record<IssueSeverity, number>;
  byCode: Record<string, number>;
  exitCode: number;
}

export interface CheckRunResult {
  exitCode: number;
  summary: CheckSummary;
  files: CheckFileSummary[];
}

/** The command line's own findings (unreadable files and lines) are errors: nothing in them could be checked. */
function asIssue(found: InputIssue): CheckIssue {
  return { code: found.code, severity: "error", message: found.message };
}

const SEVERITY_STYLE = { error: "red", warning: "yellow", info: "cyan" } as const;

function plural(count: number, word: string): string {
  return `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;
}

function countBySeverity(issues: readonly CheckIssue[]): string {
  const errors = issues.filter((found) => found.severity === "error").length;
  const warnings = issues.filter((found) => found.severity === "warning").length;
  const info = issues.length - errors - warnings;
  const parts = [plural(errors, "error")];
  if (warnings > 0) parts.push(plural(warnings, "warning"));
  if (info > 0) parts.push(`${info} info`);
  return parts.join(", ");
}

function verdictText(verdict: Verdict, issues: readonly CheckIssue[], paint: Painter): string {
  switch (verdict) {
    case "rejected":
      return paint("red", `rejected by a strict provider (HTTP 400): ${countBySeverity(issues)}`);
    case "accepted":
      return issues.length === 0
        ? paint("green", "accepted: no issues")
        : paint("green", `accepted by a strict provider: ${countBySeverity(issues)}`);
    case "unreadable":
      return paint("red", "unreadable: nothing in it was checked");
    default: {
      const never: never = verdict;
      return never;
    }
  }
}

/**
 * A finding as people read it: where (file, line), one line per issue (severity, code, path, call id, message),
 * then the verdict.
 *
 * @example
 * humanFinding({ file: "s.json", verdict: "rejected", issues: [...] }, paint);
 * // "s.json\n  error    arguments_empty  messages[2].tool_calls[0].function.arguments  call_1  the arguments are empty…"
 */
export function humanFinding(finding: CheckFinding, paint: Painter): string {
  const where = finding.line === undefined ? finding.file : `${finding.file}:${finding.line}`;
  const lines = [paint("bold", where)];
  for (const found of finding.issues) {
    const place = found.path === undefined ? "" : `  ${formatPath(found.path)}`;
    const call = found.callId === undefined ? "" : `  ${paint("cyan", found.callId)}`;
    lines.push(
      `  ${paint(SEVERITY_STYLE[found.severity], found.severity.padEnd(7))}  ${paint("bold", found.code.padEnd(22))}${place}${call}  ${found.message}`,
    );
  }
  lines.push(`  ${verdictText(finding.verdict, finding.issues, paint)}`);
  return `${lines.join("\n")}\n`;
}

function humanSummary(summary: CheckSummary, files: readonly CheckFileSummary[], paint: Painter): string {
  const lines: string[] = [];
  const codes = Object.entries(summary.byCode).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (codes.length > 0) {
    lines.push(paint("bold", "By code:"));
    const width = Math.max(...codes.map(([code]) => code.length));
    const countWidth = Math.max(...codes.map(([, count]) => String(count).length));
    for (const [code, count] of codes) {
      const severity = ISSUE_SEVERITY[code as IssueCode] ?? "error";
      lines.push(
        `  ${String(count).padStart(countWidth)}  ${code.padEnd(width)}  ${paint(SEVERITY_STYLE[severity], severity)}`,
      );
    }
  }
  for (const file of files) {
    if (file.error) {
      lines.push(
        `${paint("bold", file.file)}: ${paint("red", `unreadable (${file.error.code}): ${file.error.message}`)}`,
      );
      continue;
    }
    const parts = [plural(file.conversations, "conversation")];
    if (file.rejected > 0)
      parts.push(paint("red", `${file.rejected.toLocaleString("en-US")} rejected by a strict provider`));
    if (file.accepted > 0) parts.push(paint("green", `${file.accepted.toLocaleString("en-US")} accepted`));
    if (file.unreadableLines > 0)
      parts.push(
        paint("red", `${plural(file.unreadableLines, "unreadable line")} (passed through by repair)`),
      );
    lines.push(`${paint("bold", file.file)}: ${parts.join(", ")}`);
  }
  const { error, warning, info } = summary.issues;
  lines.push(`${plural(error, "error")}, ${plural(warning, "warning")}, ${info} info`);
  return `${lines.join("\n")}\n`;
}

/**
 * `toolcall check FILE…`: every issue core finds in every conversation (R3, with the conversation's tools when it
 * has them), with its place; a verdict per conversation; a summary by code. Exit 0 clean, 1 when an issue of
 * severity `error` (or an unreadable line) was found, 2 when a file could not be read at all.
 *
 * @example
 * const { exitCode } = await runCheck({ files: ["session.json"], json: false, quiet: false, repairs: [], maxLineBytes: 1 << 28 });
 */
export async function runCheck(options: CheckOptions): Promise<CheckRunResult> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const report = new ReportStream({ stream: stdout });
  const paint = createPainter({ stream: stdout as NodeJS.WriteStream });
  const summary: CheckSummary = {
    files: 0,
    conversations: 0,
    accepted: 0,
    rejected: 0,
    unreadableLines: 0,
    unreadableFiles: 0,
    issues: { error: 0, warning: 0, info: 0 },
    byCode: {},
    exitCode: 0,
  };
  const files: CheckFileSummary[] = [];
  const json = options.json && !options.quiet ? new JsonReport(report, "check") : undefined;

  const emit = (finding: CheckFinding) => {
    for (const found of finding.issues) {
      summary.issues[found.severity]++;
      summary.byCode[found.code] = (summary.byCode[found.code] ?? 0) + 1;
    }
    if (options.quiet) return;
    if (json) json.finding(JSON.stringify(finding));
    else report.write(humanFinding(finding, paint));
  };

  for (const file of options.files) {
    summary.files++;
    const fileSummary: CheckFileSummary = {
      file,
      conversations: 0,
      accepted: 0,
      rejected: 0,
      unreadableLines: 0,
    };
    files.push(fileSummary);
    const opened = await openInput({ path: file, ...(options.stdin ? { stdin: options.stdin } : {}) });
    if (!opened.ok) {
      fileSummary.error = opened.issue;
      emit({ file, verdict: "unreadable", issues: [asIssue(opened.issue)] });
      continue;
    }
    const progress = new Progress({
      stream: stderr as NodeJS.WriteStream,
      label: `check ${file}`,
      ...(opened.source.size !== undefined ? { total: opened.source.size } : {}),
      enabled: !options.quiet,
    });
    report.progress = progress;
    const checkConversation = (conversation: Conversation, line: number | undefined) => {
      fileSummary.conversations++;
      const issues = placeIssues(
        conversation.messages,
        validateHistory(conversation.messages, {
          ...(conversation.tools ? { tools: conversation.tools } : {}),
          repairs: options.repairs,
        }),
      );
      const verdict = verdictOf(issues);
      if (verdict === "rejected") fileSummary.rejected++;
      else fileSummary.accepted++;
      // A JSON document always gets its verdict; JSONL lists only the conversations with issues.
      if (issues.length > 0 || line === undefined)
        emit({ file, ...(line === undefined ? {} : { line }), verdict, issues });
    };
    const result = await scanInput({
      chunks: opened.source.chunks,
      maxLineBytes: options.maxLineBytes,
      visitor: {
        format(format) {
          fileSummary.format = format;
        },
        conversationLine(line) {
          checkConversation(line.conversation, line.number);
        },
        document(document) {
          checkConversation(document.conversation, undefined);
        },
        unreadableLine(line) {
          fileSummary.unreadableLines++;
          emit({ file, line: line.number, verdict: "unreadable", issues: [asIssue(line.issue)] });
        },
        blankLine() {},
        overlong() {},
        afterChunk(progressNow) {
          progress.update(progressNow);
          return report.flushIfFull();
        },
      },
    });
    progress.done();
    await opened.source.close();
    if (!result.ok) {
      fileSummary.error = result.issue;
      emit({ file, verdict: "unreadable", issues: [asIssue(result.issue)] });
    }
  }

  for (const file of files) {
    summary.conversations += file.conversations;
    summary.accepted += file.accepted;
    summary.rejected += file.rejected;
    summary.unreadableLines += file.unreadableLines;
    if (file.error) summary.unreadableFiles++;
  }
  summary.exitCode = summary.unreadableFiles > 0 ? 2 : summary.issues.error > 0 ? 1 : 0;
  if (json) {
    json.end(files, summary);
  } else if (!options.quiet) {
    report.write(humanSummary(summary, files, paint));
  } else {
    for (const file of files) {
      if (file.error) stderr.write(`toolcall: ${file.file}: ${file.error.code}: ${file.error.message}\n`);
    }
  }
  await report.end();
  return { exitCode: summary.exitCode, summary, files };
}
