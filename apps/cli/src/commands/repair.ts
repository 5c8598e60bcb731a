import { isAscii } from "node:buffer";
import { constants } from "node:fs";
import { copyFile, link, lstat, stat } from "node:fs/promises";
import {
  numbersRoundTrip,
  parseJson,
  type RepairRule,
  type SanitizeOptions,
  sanitizeHistory,
} from "@toolcall/core";
import { createPainter } from "../colors.js";
import { toConversation, withMessages } from "../conversation.js";
import { describeError, openInput } from "../input-source.js";
import { JsonReport } from "../json-report.js";
import { detectJsonStyle, writeJson } from "../json-style.js";
import { type OutputTarget, openAtomicFile, streamTarget } from "../output-target.js";
import { Progress } from "../progress.js";
import {
  findingJson,
  humanRepairFinding,
  type RepairFinding,
  type ReportedChange,
  toReportedChanges,
} from "../repair-findings.js";
import { ReportStream } from "../report-stream.js";
import { type InputFormat, scanInput } from "../scan-input.js";

export interface RepairOptions {
  /** One file with `output`; one or more with `inPlace`. `-` is standard input. */
  files: readonly string[];
  /** A path, or `-` for standard output. */
  output?: string;
  inPlace: boolean;
  backupSuffix: string;
  policy: NonNullable<SanitizeOptions["policy"]>;
  missingResult: NonNullable<SanitizeOptions["missingResult"]>;
  repairs: readonly RepairRule[];
  syntheticResult?: string;
  json: boolean;
  quiet: boolean;
  maxLineBytes: number;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

/** Totals for one file. */
export interface RepairFileSummary {
  file: string;
  output?: string;
  format?: InputFormat;
  conversations: number;
  changed: number;
  changes: number;
  passedThrough: number;
  /** True when the output was written (with `--in-place`: false when nothing needed a change). */
  written: boolean;
  backup?: string;
  error?: { code: string; message: string };
}

export interface RepairSummary {
  files: number;
  conversations: number;
  changed: number;
  changes: number;
  byRule: Record<string, number>;
  passedThrough: number;
  exitCode: number;
}

export interface RepairRunResult {
  exitCode: number;
  summary: RepairSummary;
  files: RepairFileSummary[];
}

interface Repaired {
  value: unknown;
  changes: ReportedChange[];
  /** True when numbers are `JsonNumber`s (core's serializer writes them); false for a plain `JSON.parse` tree. */
  lossless: boolean;
}

type Destination =
  | { ok: true; target: OutputTarget; path: string; backup?: string }
  | { ok: false; code: string; message: string };

async function sameFile(a: string, b: string): Promise<boolean> {
  try {
    const [x, y] = await Promise.all([stat(a), stat(b)]);
    return x.dev === y.dev && x.ino === y.ino;
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
    const mode = (await stat(file)).mode & 0o7777;
    return { ok: true, target: await openAtomicFile({ destination: file, mode }), path: file, backup };
  }
  const output = options.output as string;
  if (output === "-") return { ok: true, target: streamTarget(stdout), path: "-" };
  let mode: number | undefined;
  try {
    const existing = await stat(output);
    if (existing.isDirectory())
      return { ok: false, code: "output_unwritable", message: `${output} is a directory` };
    mode = existing.mode & 0o7777;
  } catch {
    // a new file
  }
  if (file !== "-" && (await sameFile(file, output))) {
    return {
      ok: false,
      code: "output_is_input",
      message: `${output} is the input; the input is never overwritten unless --in-place (which keeps a backup)`,
    };
  }
  try {
    return {
      ok: true,
      target: await openAtomicFile({ destination: output, ...(mode !== undefined ? { mode } : {}) }),
      path: output,
    };
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

/** Leading and trailing whitespace of a document, kept exactly around the rewritten value. */
function surroundings(text: string): { before: string; after: string } {
  const before = /^\s*/.exec(text)?.[0] ?? "";
  const after = /\s*$/.exec(text)?.[0] ?? "";
  return { before, after };
}

/**
 * `toolcall repair FILE -o OUT`: core's sanitize (R4) on every conversation, with the policy, missing-result rule
 * and repairs given as flags; the same format out. A conversation that needs nothing, a blank line and a line that
 * cannot be read are written back byte for byte. Output goes to a temporary file renamed into place (a crash never
 * leaves half a file); the input is replaced only with `--in-place`, after a backup.
 *
 * @example
 * await runRepair({ files: ["s.jsonl"], output: "fixed.jsonl", inPlace: false, backupSuffix: ".bak", policy: "preserve",
 *   missingResult: "synthesize", repairs: coreRepairs, json: false, quiet: false, maxLineBytes: 1 << 28 });
 */
export async function runRepair(options: RepairOptions): Promise<RepairRunResult> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const reportStream = options.output === "-" ? stderr : stdout;
  const report = new ReportStream({ stream: reportStream });
  const paint = createPainter({ stream: reportStream as NodeJS.WriteStream });
  const sanitizeOptions: SanitizeOptions = {
    policy: options.policy,
    missingResult: options.missingResult,
    repairs: options.repairs,
    ...(options.syntheticResult !== undefined ? { syntheticResult: options.syntheticResult } : {}),
  };
  const summary: RepairSummary = {
    files: 0,
    conversations: 0,
    changed: 0,
    changes: 0,
    byRule: {},
    passedThrough: 0,
    exitCode: 0,
  };
  const files: RepairFileSummary[] = [];
  const json = options.json && !options.quiet ? new JsonReport(report, "repair") : undefined;

  const emit = (finding: RepairFinding) => {
    if (options.quiet) return;
    if (json) json.finding(findingJson(finding));
    else report.write(humanRepairFinding(finding, paint));
  };

  for (const file of options.files) {
    summary.files++;
    const fileSummary: RepairFileSummary = {
      file,
      conversations: 0,
      changed: 0,
      changes: 0,
      passedThrough: 0,
      written: false,
    };
    files.push(fileSummary);
    const opened = await openInput({ path: file, ...(options.stdin ? { stdin: options.stdin } : {}) });
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
    fileSummary.output = destination.path;
    const out = destination.target;
    const progress = new Progress({
      stream: stderr as NodeJS.WriteStream,
      label: `repair ${file}`,
      ...(opened.source.size !== undefined ? { total: opened.source.size } : {}),
      enabled: !options.quiet,
    });
    report.progress = progress;

    /** Sanitizes a conversation; `undefined` when nothing changes (then the original bytes are written back). */
    const repairValue = (text: string, value: unknown, messages: unknown[]): Repaired | undefined => {
      const fast = sanitizeHistory(messages, sanitizeOptions);
      if (fast.changes.length === 0) return undefined;
      if (numbersRoundTrip(text)) {
        // Every number in the text reads back as written: the tree from JSON.parse loses nothing.
        return {
          value: withMessages(value, fast.messages),
          changes: toReportedChanges(fast.changes),
          lossless: false,
        };
      }
      // Some number would change (beyond 2^53, `1.0`, `1e-05`): re-read losslessly so every digit is kept.
      const exact = parseJson(text, { lossless: true });
      const conversation = exact.ok ? toConversation(exact.value) : undefined;
      if (!exact.ok || conversation === undefined) {
        return {
          value: withMessages(value, fast.messages),
          changes: toReportedChanges(fast.changes),
          lossless: false,
        };
      }
      const result = sanitizeHistory(conversation.messages, sanitizeOptions);
      return {
        value: withMessages(exact.value, result.messages),
        changes: toReportedChanges(result.changes),
        lossless: true,
      };
    };
    const recordChanges = (changes: ReportedChange[], line: number | undefined) => {
      fileSummary.changed++;
      fileSummary.changes += changes.length;
      for (const change of changes) summary.byRule[change.rule] = (summary.byRule[change.rule] ?? 0) + 1;
      emit({ file, ...(line === undefined ? {} : { line }), kind: "changed", changes });
    };
    const passThrough = (line: number, code: "line_not_rewritable", message: string) => {
      fileSummary.passedThrough++;
      emit({ file, line, kind: "passed_through", issue: { code, message } });
    };

    let changedAny = false;
    const result = await scanInput({
      chunks: opened.source.chunks,
      maxLineBytes: options.maxLineBytes,
      visitor: {
        format(format) {
          fileSummary.format = format;
        },
        conversationLine(line) {
          fileSummary.conversations++;
          const repaired = repairValue(line.text, line.value, line.conversation.messages);
          if (repaired === undefined) {
            out.write(line.raw);
            return;
          }
          const style = detectJsonStyle(line.text, { ascii: isAscii(line.raw.subarray(0, line.contentEnd)) });
          const written = writeJson(repaired.value, style, repaired.lossless);
          if (!written.ok) {
            out.write(line.raw);
            passThrough(line.number, "line_not_rewritable", written.error);
            return;
          }
          changedAny = true;
          out.write(`${line.bom ? "\uFEFF" : ""}${written.text}`);
          out.write(line.raw.subarray(line.contentEnd));
          recordChanges(repaired.changes, line.number);
        },
        document(document) {
          fileSummary.conversations++;
          const repaired = repairValue(document.text, document.value, document.conversation.messages);
          if (repaired === undefined) {
            out.write(document.raw);
            return;
          }
          const written = writeJson(repaired.value, detectJsonStyle(document.text), repaired.lossless);
          if (!written.ok) {
            out.write(document.raw);
            passThrough(1, "line_not_rewritable", written.error);
            return;
          }
          changedAny = true;
          const around = surroundings(document.text);
          out.write(`${document.bom ? "\uFEFF" : ""}${around.before}${written.text}${around.after}`);
          recordChanges(repaired.changes, undefined);
        },
        unreadableLine(line) {
          fileSummary.passedThrough++;
          if (line.raw !== undefined) out.write(line.raw);
          emit({ file, line: line.number, kind: "passed_through", issue: line.issue });
        },
        blankLine(raw) {
          out.write(raw);
        },
        overlong(bytes) {
          out.write(bytes);
        },
        afterChunk(progressNow) {
          progress.update(progressNow);
          const reportWait = report.flushIfFull();
          const outWait = out.flushIfFull();
          if (reportWait === undefined) return outWait;
          return outWait === undefined ? reportWait : Promise.all([reportWait, outWait]).then(() => {});
        },
      },
    }).catch(async (error: unknown) => {
      await out.abort();
      throw error;
    });
    progress.done();
    await opened.source.close();
    if (!result.ok) {
      await out.abort();
      fileSummary.error = result.issue;
      continue;
    }
    try {
      if (options.inPlace && !changedAny) {
        await out.abort(); // nothing to change: the file stays exactly as it was, and no backup is made
      } else {
        if (options.inPlace && destination.backup !== undefined) {
          await makeBackup(file, destination.backup);
          fileSummary.backup = destination.backup;
        }
        await out.commit();
        fileSummary.written = true;
      }
    } catch (error) {
      await out.abort();
      fileSummary.error = { code: "output_unwritable", message: describeError(error) };
    }
  }

  for (const file of files) {
    summary.conversations += file.conversations;
    summary.changed += file.changed;
    summary.changes += file.changes;
    summary.passedThrough += file.passedThrough;
  }
  const failed = files.some((file) => file.error !== undefined);
  summary.exitCode = failed ? 2 : summary.passedThrough > 0 ? 1 : 0;
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
  for (const file of files) {
    if (file.error) {
      lines.push(
        `${paint("bold", file.file)}: ${paint("red", `not repaired (${file.error.code}): ${file.error.message}`)}`,
      );
      continue;
    }
    const parts = [
      `${plural(file.conversations, "conversation")} read`,
      `${file.changed.toLocaleString("en-US")} changed (${plural(file.changes, "change")})`,
    ];
    if (file.passedThrough > 0)
      parts.push(paint("yellow", `${plural(file.passedThrough, "line")} passed through unchanged`));
    let where: string;
    if (!file.written) where = "nothing needed a change: the file is left as it was";
    else if (file.output === "-") where = "written to standard output";
    else where = `written to ${file.output}${file.backup ? ` (original kept as ${file.backup})` : ""}`;
    lines.push(`${paint("bold", file.file)}: ${parts.join(", ")}; ${paint("green", where)}`);
  }
  return `${lines.join("\n")}\n`;
}
