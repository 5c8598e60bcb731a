import { constants } from "node:fs";
import { copyFile, link, lstat, open as openFile, stat } from "node:fs/promises";
import type { ConversationFormat, RepairRule, SanitizeOptions } from "@toolcall/core";
import { createPainter } from "../colors.js";
import { describeError, openInput } from "../input-source.js";
import { JournaledOutput } from "../journal.js";
import { JsonReport } from "../json-report.js";
import { isStandardOutput, type OutputTarget, openOutputFile, streamTarget } from "../output-target.js";
import { PoolCache } from "../pool-cache.js";
import { processInput } from "../process-input.js";
import { Progress } from "../progress.js";
import { providerCheckOf } from "../provider-verdicts.js";
import { createRecordProcessor, type PendingPolicy } from "../record-processor.js";
import { findingJson, humanRepairFinding, type RepairFinding } from "../repair-findings.js";
import { ReportStream } from "../report-stream.js";
import type { InputFormat } from "../scan-input.js";

export interface RepairOptions {
  /** One file with `output`; one or more with `inPlace`. `-` is standard input. */
  files: readonly string[];
  /** A path (a regular file, or a device, FIFO or `/dev/fd/N` written in place), or `-` for standard output. */
  output?: string;
  inPlace: boolean;
  backupSuffix: string;
  policy: NonNullable<SanitizeOptions["policy"]>;
  missingResult: NonNullable<SanitizeOptions["missingResult"]>;
  /** Calls awaiting their results at the end of a history: kept (default), synthesized, or dropped. */
  pending?: PendingPolicy;
  repairs: readonly RepairRule[];
  /** The names the repairs were given by (worker threads resolve them again). */
  repairNames?: readonly string[];
  /** Worker threads for JSONL (1: none). */
  jobs?: number;
  /** True when `--jobs` was given: workers start whatever the file's size. */
  jobsGiven?: boolean;
  syntheticResult?: string;
  /** Read every record with this format instead of detecting one. */
  format?: ConversationFormat;
  /**
   * A provider profile (`--provider`): each history is made one it accepts too (its constraints' fixes after core's),
   * and what is left is checked against it.
   */
  provider?: string;
  /** Where to write the journal that `toolcall undo` rebuilds the input from (one input file). */
  journal?: string;
  json: boolean;
  quiet: boolean;
  summaryOnly?: boolean;
  maxFindings?: number;
  maxLineBytes: number;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

/** Totals for one file. */
export interface RepairFileSummary {
  file: string;
  output?: string;
  framing?: InputFormat;
  formats: string[];
  records: number;
  conversations: number;
  changed: number;
  changes: number;
  /** Records with errors left after the repair (no rule repairs them, or their format cannot hold the repair). */
  withErrors: number;
  notRewritable: number;
  passedThrough: number;
  /** True when the output was written (with `--in-place`: false when nothing needed a change). */
  written: boolean;
  backup?: string;
  journal?: string;
  error?: { code: string; message: string };
}

export interface RepairSummary {
  files: number;
  records: number;
  conversations: number;
  changed: number;
  changes: number;
  byRule: Record<string, number>;
  withErrors: number;
  notRewritable: number;
  passedThrough: number;
  findingsNotShown: number;
  exitCode: number;
}

export interface RepairRunResult {
  exitCode: number;
  summary: RepairSummary;
  files: RepairFileSummary[];
}

type Destination =
  | { ok: true; target: OutputTarget; path: string; backup?: string }
  | { ok: false; code: string; message: string };

async function sameFile(a: string, b: string): Promise<boolean> {
  try {
    const [x, y] = await Promise.all([stat(a), stat(b)]);
    return x.dev === y.dev && x.ino === y.ino && x.isFile();
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** True when a file starts with gzip's magic number (read before the output is opened, to write the same way). */
async function startsWithGzip(path: string): Promise<boolean> {
  if (path === "-") return false;
  try {
    const handle = await openFile(path, "r");
    try {
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(2), 0, 2, 0);
      return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/** Where one file's repaired bytes go, after every check that can refuse (before any byte is written). */
async function openDestination(
  file: string,
  options: RepairOptions,
  stdout: NodeJS.WritableStream,
): Promise<Destination> {
  if (options.inPlace) {
    const backup = `${file}${options.backupSuffix}`;
    if (await exists(backup)) {
      return {
        ok: false,
        code: "backup_exists",
        message: `${backup} exists; remove it or choose another --backup-suffix (a backup is never overwritten)`,
      };
    }
    const opened = await openOutputFile({ destination: file, gzip: await startsWithGzip(file) });
    return { ok: true, target: opened.target, path: file, backup };
  }
  const output = options.output as string;
  // Standard output however it is named (-, /dev/stdout, /dev/fd/1): written as a stream, never renamed over.
  if (isStandardOutput(output)) return { ok: true, target: streamTarget(stdout), path: output };
  const existing = await stat(output).catch(() => undefined);
  if (existing?.isDirectory())
    return { ok: false, code: "output_unwritable", message: `${output} is a directory` };
  if (file !== "-" && (await sameFile(file, output))) {
    return {
      ok: false,
      code: "output_is_input",
      message: `${output} is the input; the input is never overwritten unless --in-place (which keeps a backup)`,
    };
  }
  try {
    const opened = await openOutputFile({ destination: output, gzip: output.endsWith(".gz") });
    return { ok: true, target: opened.target, path: output };
  } catch (error) {
    return { ok: false, code: "output_unwritable", message: `${output}: ${describeError(error)}` };
  }
}

/** Keeps the original beside the file: a hard link (instant, no copy), or a copy where links are not possible. */
async function makeBackup(file: string, backup: string): Promise<void> {
  try {
    await link(file, backup);
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") throw error;
    await copyFile(file, backup, constants.COPYFILE_EXCL);
  }
}

/**
 * `toolcall repair FILE -o OUT`: every record read in its format, core's sanitize (R4) on every conversation with
 * the policy, missing-result, pending and repair flags, and the record written back in its format: what needs no
 * change (a record, a blank line, a line that cannot be read) byte for byte, what changed in the style it was
 * written in. Every replacement goes to the journal (`--journal`) with the bytes it replaced, so `toolcall undo`
 * gives the input back. A regular file is written to a temporary file renamed into place (keeping mode and owner);
 * a device, a FIFO or `/dev/fd/N` is written where it is. Exit 0 when nothing is left to report, 1 when errors
 * remain (or lines were passed through unread), 2 when nothing was written.
 *
 * @example
 * await runRepair({ files: ["s.jsonl"], output: "fixed.jsonl", inPlace: false, backupSuffix: ".bak", policy: "preserve",
 *   missingResult: "synthesize", repairs: coreRepairs, json: false, quiet: false, maxLineBytes: 1 << 28 });
 */
export async function runRepair(options: RepairOptions): Promise<RepairRunResult> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const reportStream = isStandardOutput(options.output) ? stderr : stdout;
  const report = new ReportStream({ stream: reportStream });
  const paint = createPainter({ stream: reportStream as NodeJS.WriteStream });
  const providers = providerCheckOf(
    options.provider === undefined ? undefined : [options.provider],
    options.quiet,
  );
  const processor = createRecordProcessor({
    repairs: options.repairs,
    policy: options.policy,
    missingResult: options.missingResult,
    ...(options.syntheticResult !== undefined ? { syntheticResult: options.syntheticResult } : {}),
    pending: options.pending ?? "keep",
    ...(providers !== undefined ? { providers } : {}),
    ...(options.provider !== undefined ? { provider: options.provider } : {}),
  });
  const context = {
    mode: "repair" as const,
    processor,
    ...(options.format ? { forced: options.format } : {}),
  };
  const pools = new PoolCache({
    jobs: options.jobs ?? 1,
    always: options.jobsGiven === true,
    config: {
      mode: "repair",
      repairNames: options.repairNames ?? ["core"],
      policy: options.policy,
      missingResult: options.missingResult,
      pending: options.pending ?? "keep",
      ...(options.syntheticResult !== undefined ? { syntheticResult: options.syntheticResult } : {}),
      ...(options.format ? { format: options.format.id } : {}),
      ...(providers !== undefined ? { providers } : {}),
      ...(options.provider !== undefined ? { provider: options.provider } : {}),
    },
    context,
  });
  const summary: RepairSummary = {
    files: 0,
    records: 0,
    conversations: 0,
    changed: 0,
    changes: 0,
    byRule: {},
    withErrors: 0,
    notRewritable: 0,
    passedThrough: 0,
    findingsNotShown: 0,
    exitCode: 0,
  };
  const files: RepairFileSummary[] = [];
  const json = options.json && !options.quiet ? new JsonReport(report, "repair") : undefined;
  let shown = 0;

  const emit = (finding: RepairFinding) => {
    if (options.quiet || options.summaryOnly) return;
    if (options.maxFindings !== undefined && shown >= options.maxFindings) {
      summary.findingsNotShown++;
      return;
    }
    shown++;
    if (json) json.finding(findingJson(finding));
    else report.write(humanRepairFinding(finding, paint));
  };

  for (const file of options.files) {
    summary.files++;
    const fileSummary: RepairFileSummary = {
      file,
      formats: [],
      records: 0,
      conversations: 0,
      changed: 0,
      changes: 0,
      withErrors: 0,
      notRewritable: 0,
      passedThrough: 0,
      written: false,
    };
    files.push(fileSummary);
    const opened = await openInput({
      path: file,
      hash: options.journal !== undefined,
      ...(options.stdin ? { stdin: options.stdin } : {}),
    });
    if (!opened.ok) {
      fileSummary.error = opened.issue;
      continue;
    }
    const destination = await openDestination(file, options, stdout);
    if (!destination.ok) {
      await opened.source.close();
      fileSummary.error = { code: destination.code, message: destination.message };
      continue;
    }
    let journalTarget: OutputTarget | undefined;
    if (options.journal !== undefined) {
      try {
        journalTarget = (await openOutputFile({ destination: options.journal })).target;
      } catch (error) {
        await destination.target.abort();
        await opened.source.close();
        fileSummary.error = {
          code: "output_unwritable",
          message: `${options.journal}: ${describeError(error)}`,
        };
        continue;
      }
    }
    fileSummary.output = destination.path;
    const out = new JournaledOutput({
      target: destination.target,
      ...(journalTarget ? { journal: journalTarget } : {}),
    });
    const abortAll = async () => {
      await destination.target.abort();
      await journalTarget?.abort();
    };
    const progress = new Progress({
      stream: stderr as NodeJS.WriteStream,
      label: `repair ${file}`,
      ...(opened.source.size !== undefined ? { total: opened.source.size } : {}),
      enabled: !options.quiet,
    });
    report.progress = progress;

    let result: Awaited<ReturnType<typeof processInput>>;
    try {
      result = await processInput({
        chunks: opened.source.chunks,
        maxLineBytes: options.maxLineBytes,
        context,
        pool: await pools.for(opened.source.size),
        output: out,
        handler: {
          format(format) {
            fileSummary.formats.push(format.id);
          },
          consume(format, place, data) {
            if (data.kind !== "repair") return;
            fileSummary.records++;
            fileSummary.conversations += data.conversations;
            const where = {
              file,
              ...(place.line !== undefined ? { line: place.line } : {}),
              ...(place.index !== undefined ? { record: place.index } : {}),
            };
            const errors = data.remaining.some((found) => found.severity === "error");
            if (errors) fileSummary.withErrors++;
            if (data.changes.length === 0) {
              if (errors)
                emit({ ...where, kind: "unrepaired", format: format.id, remaining: data.remaining });
              return;
            }
            const reason = data.notRewritable ?? data.notWritable;
            if (reason !== undefined) {
              fileSummary.notRewritable++;
              emit({
                ...where,
                kind: "not_rewritable",
                format: format.id,
                reason,
                changes: data.changes,
                remaining: data.remaining,
              });
              return;
            }
            fileSummary.changed++;
            fileSummary.changes += data.changes.length;
            for (const change of data.changes)
              summary.byRule[change.rule] = (summary.byRule[change.rule] ?? 0) + 1;
            emit({
              ...where,
              kind: "changed",
              format: format.id,
              changes: data.changes,
              remaining: data.remaining,
            });
          },
          unreadable(place, issue) {
            fileSummary.passedThrough++;
            emit({
              file,
              ...(place.line !== undefined ? { line: place.line } : {}),
              ...(place.index !== undefined ? { record: place.index } : {}),
              kind: "passed_through",
              issue,
            });
          },
        },
        afterChunk(progressNow) {
          progress.update(progressNow);
          const reportWait = report.flushIfFull();
          const outWait = out.flushIfFull();
          if (reportWait === undefined) return outWait;
          return outWait === undefined ? reportWait : Promise.all([reportWait, outWait]).then(() => {});
        },
      });
    } catch (error) {
      await abortAll();
      if ((error as { code?: string })?.code === "EPIPE") throw error;
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
      await abortAll();
      fileSummary.error = result.issue;
      continue;
    }
    try {
      if (options.inPlace && fileSummary.changed === 0) {
        // Nothing to change: the file stays exactly as it was, and no backup is made.
        await destination.target.abort();
        if (journalTarget !== undefined) {
          out.writeTrailer(
            out.trailer(
              { name: file, bytes: result.summary.bytes, sha256: opened.source.sha256() },
              opened.source.gzip,
            ),
          );
          await journalTarget.commit();
          fileSummary.journal = options.journal;
        }
      } else {
        if (journalTarget !== undefined) {
          const gzip = options.inPlace ? opened.source.gzip : (options.output ?? "").endsWith(".gz");
          out.writeTrailer(
            out.trailer({ name: file, bytes: result.summary.bytes, sha256: opened.source.sha256() }, gzip),
          );
          // The journal first: an output without its journal could not be undone.
          await journalTarget.commit();
          fileSummary.journal = options.journal;
        }
        if (options.inPlace && destination.backup !== undefined) {
          await makeBackup(file, destination.backup);
          fileSummary.backup = destination.backup;
        }
        await destination.target.commit();
        fileSummary.written = true;
      }
    } catch (error) {
      await abortAll();
      fileSummary.error = { code: "output_unwritable", message: describeError(error) };
    }
  }

  for (const file of files) {
    summary.records += file.records;
    summary.conversations += file.conversations;
    summary.changed += file.changed;
    summary.changes += file.changes;
    summary.withErrors += file.withErrors;
    summary.notRewritable += file.notRewritable;
    summary.passedThrough += file.passedThrough;
  }
  const failed = files.some((file) => file.error !== undefined);
  const remaining = summary.withErrors > 0 || summary.passedThrough > 0;
  summary.exitCode = failed ? 2 : remaining ? 1 : 0;
  if (json) {
    json.end(files, summary);
  } else if (!options.quiet) {
    report.write(humanRepairSummary(summary, files, paint));
  }
  if (!json) {
    for (const file of files) {
      if (file.error && options.quiet)
        stderr.write(`toolcall: ${file.file}: ${file.error.code}: ${file.error.message}\n`);
    }
  }
  await report.end();
  await pools.close();
  return { exitCode: summary.exitCode, summary, files };
}

function plural(count: number, word: string): string {
  return `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;
}

function humanRepairSummary(
  summary: RepairSummary,
  files: readonly RepairFileSummary[],
  paint: ReturnType<typeof createPainter>,
): string {
  const lines: string[] = [];
  const rules = Object.entries(summary.byRule).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (rules.length > 0) {
    lines.push(paint("bold", "By rule:"));
    const width = Math.max(...rules.map(([, count]) => String(count).length));
    for (const [rule, count] of rules) lines.push(`  ${String(count).padStart(width)}  ${rule}`);
  }
  if (summary.findingsNotShown > 0) {
    lines.push(
      paint("yellow", `${plural(summary.findingsNotShown, "more finding")} not shown (--max-findings)`),
    );
  }
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
  return `${lines.join("\n")}\n`;
}
