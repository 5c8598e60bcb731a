import { createRecordEngine } from "@toolcall/core";
import type { ConversationFormat, RepairRule } from "@toolcall/core/kit";
import type { InputIssue, SkippedEntry } from "@toolcall/files";
import type { InputFormat } from "@toolcall/files/parts";
import {
  describeError,
  findingPlace,
  openInput,
  PoolCache,
  processFile,
  providerCheckOf,
} from "@toolcall/files/parts";
import {
  type CheckFinding,
  type CheckIssue,
  humanFinding,
  type Verdict,
  verdictOf,
} from "../report/check-findings.js";
import { createPainter, type Painter } from "../report/colors.js";
import { plural, summaryHead } from "../report/human-counts.js";
import { JsonReport } from "../report/json-report.js";
import { Progress } from "../report/progress.js";
import { ReportStream } from "../report/report-stream.js";
import { skippedLines } from "../report/skipped-lines.js";

export interface CheckOptions {
  files: readonly string[];
  json: boolean;
  quiet: boolean;
  /** Only the per-file totals and the summary, no finding (for huge files). */
  summaryOnly?: boolean;
  /** List at most this many findings; the rest are counted. */
  maxFindings?: number;
  repairs: readonly RepairRule[];
  /** The names the repairs were given by (worker threads resolve them again). */
  repairNames?: readonly string[];
  /** Worker threads for JSONL (1: none). */
  jobs?: number;
  /** True when `--jobs` was given: workers start whatever the file's size. */
  jobsGiven?: boolean;
  maxLineBytes: number;
  /** Read every record with this format instead of detecting one. */
  format?: ConversationFormat;
  /**
   * Provider profiles to check every conversation against (`--provider`); without, every profile is asked about the
   * conversations with errors (unless `quiet`: the exit code needs no verdict).
   */
  providers?: readonly string[];
  /** Paths that could not be read as a whole before any file was (a directory that cannot be read, or holds none). */
  unreadable?: ReadonlyArray<{ file: string; issue: InputIssue }>;
  /** What the walk of a directory did not read (symbolic links, the output inside the tree). */
  skipped?: readonly SkippedEntry[];
  /** Standard streams (tests and the default run pass their own). */
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

/** Totals for one file. */
export interface CheckFileSummary {
  file: string;
  framing?: InputFormat;
  /** The formats its records were read in. */
  formats: string[];
  records: number;
  conversations: number;
  clean: number;
  withErrors: number;
  unreadableLines: number;
  /** Set when the file as a whole could not be checked (exit 2). */
  error?: { code: string; message: string };
}

/** Totals over every file. */
export interface CheckSummary {
  files: number;
  records: number;
  conversations: number;
  clean: number;
  withErrors: number;
  unreadableLines: number;
  unreadableFiles: number;
  issues: { error: number; warning: number; info: number };
  byCode: Record<string, number>;
  /** Findings left out of the listing by --max-findings. */
  findingsNotShown: number;
  /** What the walk of a directory did not read. */
  skipped: SkippedEntry[];
  exitCode: number;
}

export interface CheckRunResult {
  exitCode: number;
  summary: CheckSummary;
  files: CheckFileSummary[];
}

/** The command line's own findings (unreadable files and lines) are errors: nothing in them could be checked. */
function asIssue(found: InputIssue): CheckIssue {
  return { code: found.code, severity: "error", message: found.message, path: [] };
}

function humanSummary(summary: CheckSummary, files: readonly CheckFileSummary[], paint: Painter): string {
  // Codes about whole files are on those files' own lines below: the table counts what was found inside files.
  const inside = Object.fromEntries(
    Object.entries(summary.byCode).filter(([code]) => !code.startsWith("input_")),
  );
  const lines = summaryHead("By code:", inside, summary.findingsNotShown, paint);
  for (const file of files) {
    if (file.error) {
      lines.push(
        `${paint("bold", file.file)}: ${paint("red", `unreadable (${file.error.code}): ${file.error.message}`)}`,
      );
      continue;
    }
    const parts = [
      `${plural(file.conversations, "conversation")}${file.formats.length > 0 ? ` (${file.formats.join(", ")})` : ""}`,
    ];
    if (file.withErrors > 0)
      parts.push(paint("red", `${file.withErrors.toLocaleString("en-US")} with errors`));
    if (file.clean > 0) parts.push(paint("green", `${file.clean.toLocaleString("en-US")} clean`));
    if (file.unreadableLines > 0) {
      parts.push(
        paint("red", `${plural(file.unreadableLines, "unreadable line")} (passed through by repair)`),
      );
    }
    lines.push(`${paint("bold", file.file)}: ${parts.join(", ")}`);
  }
  lines.push(...skippedLines(summary.skipped, paint));
  if (files.length > 1) {
    lines.push(
      `${paint("bold", "Total")}: ${plural(files.length, "file")}, ${plural(summary.conversations, "conversation")}, ${summary.withErrors.toLocaleString("en-US")} with errors, ${summary.clean.toLocaleString("en-US")} clean${summary.unreadableFiles > 0 ? paint("red", `, ${plural(summary.unreadableFiles, "file")} not read`) : ""}`,
    );
  }
  const { error, warning, info } = summary.issues;
  lines.push(`${plural(error, "error")}, ${plural(warning, "warning")}, ${info} info`);
  return `${lines.join("\n")}\n`;
}

/**
 * `toolcall check FILE…`: every record of every file read in its format (detected, or `format`), every issue core
 * and the format find (every message whole, every call, pairing; calls awaiting results at the end are pending),
 * with its place in the record; per conversation an honest verdict (clean, or the rules it breaks and the provider
 * profiles that reject each; with `providers`, what those profiles reject besides); a summary by code. Exit 0 clean, 1 when an issue of severity error (or an unreadable line) was
 * found, 2 when a file could not be read at all.
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
    records: 0,
    conversations: 0,
    clean: 0,
    withErrors: 0,
    unreadableLines: 0,
    unreadableFiles: 0,
    issues: { error: 0, warning: 0, info: 0 },
    byCode: {},
    findingsNotShown: 0,
    skipped: [...(options.skipped ?? [])],
    exitCode: 0,
  };
  const files: CheckFileSummary[] = [];
  const json = options.json && !options.quiet ? new JsonReport(report, "check") : undefined;
  const providers = providerCheckOf(options.providers, options.quiet);
  const processor = createRecordEngine({
    repairs: options.repairs,
    ...(providers !== undefined ? { providers } : {}),
  });
  const pools = new PoolCache({
    jobs: options.jobs ?? 1,
    always: options.jobsGiven === true,
    config: {
      mode: "check",
      repairNames: options.repairNames ?? ["core"],
      ...(options.format ? { format: options.format.id } : {}),
      ...(providers !== undefined ? { providers } : {}),
    },
    context: { mode: "check", processor, ...(options.format ? { forced: options.format } : {}) },
  });
  let shown = 0;

  const emit = (finding: CheckFinding, wholeFile = false) => {
    for (const found of finding.issues) {
      summary.issues[found.severity]++;
      summary.byCode[found.code] = (summary.byCode[found.code] ?? 0) + 1;
    }
    if (options.quiet || options.summaryOnly) return;
    // A file that could not be read is said once, on its own line of the summary (the JSON report lists it too).
    if (wholeFile && json === undefined) return;
    if (options.maxFindings !== undefined && shown >= options.maxFindings) {
      summary.findingsNotShown++;
      return;
    }
    shown++;
    if (json) json.finding(JSON.stringify(finding));
    else report.write(humanFinding(finding, paint));
  };

  for (const { file, issue } of options.unreadable ?? []) {
    summary.files++;
    files.push({
      file,
      formats: [],
      records: 0,
      conversations: 0,
      clean: 0,
      withErrors: 0,
      unreadableLines: 0,
      error: issue,
    });
    emit({ file, verdict: "unreadable", issues: [asIssue(issue)] }, true);
  }
  for (const file of options.files) {
    summary.files++;
    const fileSummary: CheckFileSummary = {
      file,
      formats: [],
      records: 0,
      conversations: 0,
      clean: 0,
      withErrors: 0,
      unreadableLines: 0,
    };
    files.push(fileSummary);
    const opened = await openInput({ path: file, ...(options.stdin ? { stdin: options.stdin } : {}) });
    if (!opened.ok) {
      fileSummary.error = opened.issue;
      emit({ file, verdict: "unreadable", issues: [asIssue(opened.issue)] }, true);
      continue;
    }
    const progress = new Progress({
      stream: stderr as NodeJS.WriteStream,
      label: `check ${file}`,
      ...(opened.source.size !== undefined ? { total: opened.source.size } : {}),
      enabled: !options.quiet,
    });
    report.progress = progress;
    let result: Awaited<ReturnType<typeof processFile>>;
    try {
      result = await processFile({
        source: opened.source,
        maxLineBytes: options.maxLineBytes,
        context: { mode: "check", processor, ...(options.format ? { forced: options.format } : {}) },
        pool: await pools.for(opened.source.size),
        handler: {
          format(format) {
            fileSummary.formats.push(format.id);
          },
          consume(format, place, data) {
            if (data.kind !== "check") return;
            fileSummary.records++;
            const checked = data;
            fileSummary.conversations += checked.conversations;
            const verdict: Verdict = verdictOf(checked.issues);
            if (verdict === "errors") fileSummary.withErrors++;
            else fileSummary.clean++;
            // A document always gets its verdict; records of a larger file are listed only with issues.
            const whole = place.line === undefined && place.index === undefined;
            if (checked.issues.length > 0 || whole) {
              emit({
                ...findingPlace(file, place),
                format: format.id,
                verdict,
                issues: checked.issues,
              });
            }
          },
          unreadable(place, issue) {
            fileSummary.unreadableLines++;
            emit({
              ...findingPlace(file, place),
              verdict: "unreadable",
              issues: [asIssue(issue)],
            });
          },
        },
        afterChunk(progressNow) {
          progress.update(progressNow);
          return report.flushIfFull();
        },
      });
    } catch (error) {
      result = {
        ok: false,
        issue: { code: "input_unreadable", message: describeError(error) },
        summary: { framing: "jsonl", bytes: 0, records: 0 },
      };
    }
    progress.done();
    await opened.source.close();
    fileSummary.framing = result.summary.framing;
    if (!result.ok) {
      fileSummary.error = result.issue;
      emit({ file, verdict: "unreadable", issues: [asIssue(result.issue)] }, true);
    }
  }

  for (const file of files) {
    summary.records += file.records;
    summary.conversations += file.conversations;
    summary.clean += file.clean;
    summary.withErrors += file.withErrors;
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
  await pools.close();
  return { exitCode: summary.exitCode, summary, files };
}
