import { createRecordEngine, type RecordIssue } from "@toolcall/core";
import type { InputIssue } from "../input/input-issue.js";
import { describeError, openInput } from "../input/input-source.js";
import type { InputFormat } from "../input/scan-input.js";
import { processFile } from "../pipeline/process-file.js";
import { formatById } from "../records/formats.js";
import { findingPlace } from "../records/places.js";
import { resolveRepairs } from "../records/repair-registry.js";
import { PoolCache } from "../workers/pool-cache.js";

/**
 * What {@link checkFile} reads and how.
 *
 * @example
 * const options: CheckFileOptions = { path: "data.jsonl", providers: ["anthropic"], onFinding: (f) => console.log(f.line) };
 */
export interface CheckFileOptions {
  /** The file: JSON, JSON Lines, a session, a stream log, gzipped or not. */
  path: string;
  /** Repair names, as `toolcall check --repair` takes them (default `["core"]`): a finding says what they would fix. */
  repairs?: readonly string[];
  /** A format id (`ALL_FORMATS`) every record is read in, instead of detecting each record's. */
  format?: string;
  /** Provider profiles every conversation is checked against (`"openai"`, `"anthropic"`…). */
  providers?: readonly string[];
  /** Worker threads for a JSONL file of 8 MiB or more (default 1: this thread). */
  jobs?: number;
  /** A longer line is passed over as `line_too_long` (default 256 MiB). */
  maxLineBytes?: number;
  /** Each finding as it is found; without it, findings are collected in the result. */
  onFinding?(finding: FileFinding): void;
}

/**
 * A record with issues, or a part of the file that holds no readable record.
 *
 * @example
 * const finding: FileFinding = { line: 3, issues: [{ code: "line_invalid_json", message: "Unterminated string" }] };
 */
export interface FileFinding {
  /** The JSONL line (1-based) or the element of a JSON array; neither for a whole document. */
  line?: number;
  record?: number;
  /** The format the record was read in (absent for what could not be read). */
  format?: string;
  issues: ReadonlyArray<RecordIssue | InputIssue>;
}

/**
 * Totals for a checked file, and its findings unless `onFinding` took them.
 *
 * @example
 * const result = await checkFile({ path: "data.jsonl" });
 * if (result.ok) console.log(`${result.check.withErrors} of ${result.check.records} records with errors`);
 */
export interface FileCheck {
  framing: InputFormat;
  formats: string[];
  records: number;
  conversations: number;
  /** Records with an issue of severity error. */
  withErrors: number;
  unreadableLines: number;
  findings: FileFinding[];
}

/**
 * A checked file, or why it could not be checked (a code of {@link INPUT_ISSUE_CODES}, or `option_invalid`).
 *
 * @example
 * const result: CheckFileResult = await checkFile({ path: "missing.jsonl" });
 * if (!result.ok) console.log(result.issue.code); // "input_unreadable"
 */
export type CheckFileResult =
  | { ok: true; check: FileCheck }
  | { ok: false; issue: { code: string; message: string } };

/**
 * Checks every record of one file, in its format (detected per record, or `format`), the way `toolcall check`
 * does: the issues core and the format find, each with its place. A file that cannot be read, or an option that
 * names nothing, is a result, not a throw.
 *
 * @example
 * const result = await checkFile({ path: "sessions/today.jsonl" });
 * if (result.ok) console.log(result.check.withErrors, result.check.findings[0]?.issues[0]?.code);
 */
export async function checkFile(options: CheckFileOptions): Promise<CheckFileResult> {
  const resolved = await resolveRepairs(options.repairs ?? ["core"]);
  if (!resolved.ok) return { ok: false, issue: { code: "option_invalid", message: resolved.error } };
  const forced = options.format === undefined ? undefined : formatById(options.format);
  if (options.format !== undefined && forced === undefined) {
    return {
      ok: false,
      issue: { code: "option_invalid", message: `no format ${JSON.stringify(options.format)}` },
    };
  }
  const providers =
    options.providers !== undefined && options.providers.length > 0
      ? { mode: "named" as const, ids: options.providers }
      : undefined;
  const processor = createRecordEngine({ repairs: resolved.rules, ...(providers ? { providers } : {}) });
  const context = { mode: "check" as const, processor, ...(forced ? { forced } : {}) };
  const pools = new PoolCache({
    jobs: options.jobs ?? 1,
    config: {
      mode: "check",
      repairNames: options.repairs ?? ["core"],
      ...(forced ? { format: forced.id } : {}),
      ...(providers ? { providers } : {}),
    },
    context,
  });
  const opened = await openInput({ path: options.path });
  if (!opened.ok) return { ok: false, issue: opened.issue };
  const check: FileCheck = {
    framing: "json",
    formats: [],
    records: 0,
    conversations: 0,
    withErrors: 0,
    unreadableLines: 0,
    findings: [],
  };
  const found = options.onFinding ?? ((finding: FileFinding) => check.findings.push(finding));
  const at = (place: { line?: number; index?: number }) => {
    const { file: _file, ...where } = findingPlace(options.path, place);
    return where;
  };
  try {
    const result = await processFile({
      source: opened.source,
      pool: await pools.for(opened.source.size),
      context,
      maxLineBytes: options.maxLineBytes ?? 256 * 1024 * 1024,
      handler: {
        format(format) {
          check.formats.push(format.id);
        },
        consume(format, place, data) {
          if (data.kind !== "check") return;
          check.records++;
          check.conversations += data.conversations;
          if (data.issues.some((issue) => issue.severity === "error")) check.withErrors++;
          if (data.issues.length > 0) found({ ...at(place), format: format.id, issues: data.issues });
        },
        unreadable(place, issue) {
          check.unreadableLines++;
          found({ ...at(place), issues: [issue] });
        },
      },
    });
    check.framing = result.summary.framing;
    if (!result.ok) return { ok: false, issue: result.issue };
    return { ok: true, check };
  } catch (error) {
    return { ok: false, issue: { code: "input_unreadable", message: describeError(error) } };
  } finally {
    await opened.source.close();
    await pools.close();
  }
}
