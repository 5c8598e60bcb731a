import { createRecordEngine, type RecordIssue, type SanitizeOptions } from "@toolcall/core";
import type { PendingPolicy, RecordChange } from "@toolcall/core/kit";
import { clashingFiles } from "../input/file-identity.js";
import type { InputIssue } from "../input/input-issue.js";
import { describeError, openInput } from "../input/input-source.js";
import type { InputFormat } from "../input/scan-input.js";
import { JournaledOutput } from "../output/journal.js";
import { type OutputTarget, OutputWriteError, openOutputFile } from "../output/output-target.js";
import { processFile } from "../pipeline/process-file.js";
import { formatById } from "../records/formats.js";
import { findingPlace } from "../records/places.js";
import { resolveRepairs } from "../records/repair-registry.js";
import { PoolCache } from "../workers/pool-cache.js";

/**
 * What {@link repairFile} reads, writes and how it repairs.
 *
 * @example
 * const options: RepairFileOptions = { path: "in.jsonl", output: "out.jsonl", journal: "out.jsonl.journal", provider: "anthropic" };
 */
export interface RepairFileOptions {
  /** The file to repair: JSON, JSON Lines, a session, a stream log, gzipped or not. It is never written. */
  path: string;
  /** Where the repaired copy goes (gzipped when the name ends in `.gz`); in place only once it is whole. */
  output: string;
  /** Where the journal goes: every replacement with the bytes it replaced, so the input can be given back. */
  journal?: string;
  /** Repair names, as `toolcall repair --repair` takes them (default `["core"]`). */
  repairs?: readonly string[];
  /** A format id (`ALL_FORMATS`) every record is read in, instead of detecting each record's. */
  format?: string;
  /** A provider profile each history is also made acceptable to (`"anthropic"`, `"bedrock-converse"`…). */
  provider?: string;
  /** Core's sanitize choices (defaults `preserve`, `synthesize`, `keep`: nothing the model wrote is dropped). */
  policy?: NonNullable<SanitizeOptions["policy"]>;
  missingResult?: NonNullable<SanitizeOptions["missingResult"]>;
  pending?: PendingPolicy;
  /** Worker threads for a JSONL file of 8 MiB or more (default 1: this thread). */
  jobs?: number;
  /** A longer line is passed through unread as `line_too_long` (default 256 MiB). */
  maxLineBytes?: number;
  /** Each record changed, left with errors, or passed through, as it is found; without it, kept in the result. */
  onFinding?(finding: RepairFinding): void;
}

/**
 * A record the repair changed or could not make clean, or a part of the file passed through unread.
 *
 * @example
 * const finding: RepairFinding = { line: 2, format: "openai-chat", changes: [], remaining: [] };
 */
export interface RepairFinding {
  line?: number;
  record?: number;
  format?: string;
  changes: RecordChange[];
  /** Issues left after the repair. */
  remaining: RecordIssue[];
  /** Why a changed record could not be written back (it is kept as it was). */
  notRewritable?: string;
  /** Why a part of the file holds no record it could read (it is copied through byte for byte). */
  passedThrough?: InputIssue;
}

/**
 * Totals for a repaired file, and its findings unless `onFinding` took them.
 *
 * @example
 * const result = await repairFile({ path: "in.jsonl", output: "out.jsonl" });
 * if (result.ok) console.log(`${result.repair.changed} of ${result.repair.records} records changed`);
 */
export interface FileRepair {
  framing: InputFormat;
  formats: string[];
  records: number;
  /** Records rewritten, and the changes in them. */
  changed: number;
  changes: number;
  /** Records still with an issue of severity error. */
  withErrors: number;
  passedThrough: number;
  findings: RepairFinding[];
}

/**
 * A repaired file, or why nothing was written (an input issue code, `output_is_input`, `outputs_are_one_file`,
 * `output_unwritable` or `option_invalid`).
 *
 * @example
 * const result: RepairFileResult = await repairFile({ path: "in.jsonl", output: "in.jsonl" });
 * if (!result.ok) console.log(result.issue.code); // "output_is_input"
 */
export type RepairFileResult =
  | { ok: true; repair: FileRepair }
  | { ok: false; issue: { code: string; message: string } };

const fail = (code: string, message: string) => ({ ok: false as const, issue: { code, message } });

/**
 * Repairs every record of one file into a copy, the way `toolcall repair FILE -o OUT` does: each record read in its
 * format, core's repairs and sanitize, written back in its format and JSON style; what needs no change (a record,
 * a blank line, a line that cannot be read) byte for byte. The output (and journal) appear only when whole; on any
 * failure nothing is written and the result says why. It never throws for bad input or an unwritable output.
 *
 * @example
 * const result = await repairFile({ path: "sessions.jsonl", output: "fixed.jsonl", journal: "fixed.jsonl.journal" });
 * if (result.ok) console.log(result.repair.changes);
 */
export async function repairFile(options: RepairFileOptions): Promise<RepairFileResult> {
  const names = options.repairs ?? ["core"];
  const resolved = await resolveRepairs(names);
  if (!resolved.ok) return fail("option_invalid", resolved.error);
  const forced = options.format === undefined ? undefined : formatById(options.format);
  if (options.format !== undefined && forced === undefined)
    return fail("option_invalid", `no format ${JSON.stringify(options.format)}`);
  const clash = await clashingFiles({
    files: {
      input: options.path,
      output: options.output,
      ...(options.journal ? { journal: options.journal } : {}),
    },
  });
  if (clash !== undefined) {
    const code = clash.first === "input" ? "output_is_input" : "outputs_are_one_file";
    return fail(code, `the ${clash.second} is the same file as the ${clash.first}`);
  }
  const sanitize = {
    policy: options.policy ?? "preserve",
    missingResult: options.missingResult ?? "synthesize",
    pending: options.pending ?? "keep",
  } as const;
  const provider = options.provider === undefined ? {} : { provider: options.provider };
  const context = {
    mode: "repair" as const,
    processor: createRecordEngine({ repairs: resolved.rules, ...sanitize, ...provider }),
    ...(forced ? { forced } : {}),
  };
  const pools = new PoolCache({
    jobs: options.jobs ?? 1,
    config: {
      mode: "repair",
      repairNames: names,
      ...sanitize,
      ...provider,
      ...(forced ? { format: forced.id } : {}),
    },
    context,
  });
  const opened = await openInput({ path: options.path, hash: options.journal !== undefined });
  if (!opened.ok) return { ok: false, issue: opened.issue };
  const targets: OutputTarget[] = [];
  // An error before both files are open is the output's; after, the input's (unless a write failed).
  let opening = true;
  try {
    const target = (
      await openOutputFile({ destination: options.output, gzip: options.output.endsWith(".gz") })
    ).target;
    targets.push(target);
    const journal =
      options.journal === undefined
        ? undefined
        : (await openOutputFile({ destination: options.journal })).target;
    if (journal) targets.push(journal);
    opening = false;
    const out = new JournaledOutput({ target, ...(journal ? { journal } : {}) });
    const repair: FileRepair = {
      framing: "json",
      formats: [],
      records: 0,
      changed: 0,
      changes: 0,
      withErrors: 0,
      passedThrough: 0,
      findings: [],
    };
    const found = options.onFinding ?? ((finding: RepairFinding) => repair.findings.push(finding));
    const at = (place: { line?: number; index?: number }) => {
      const { file: _file, ...where } = findingPlace(options.path, place);
      return where;
    };
    const result = await processFile({
      source: opened.source,
      pool: await pools.for(opened.source.size),
      context,
      maxLineBytes: options.maxLineBytes ?? 256 * 1024 * 1024,
      output: out,
      target,
      hashInput: journal !== undefined,
      handler: {
        format(format) {
          repair.formats.push(format.id);
        },
        consume(format, place, data) {
          if (data.kind !== "repair") return;
          repair.records++;
          const errors = data.remaining.some((issue) => issue.severity === "error");
          if (errors) repair.withErrors++;
          const notRewritable = data.notRewritable ?? data.notWritable;
          if (data.changes.length > 0 && notRewritable === undefined) {
            repair.changed++;
            repair.changes += data.changes.length;
          }
          if (data.changes.length > 0 || errors) {
            found({
              ...at(place),
              format: format.id,
              changes: data.changes,
              remaining: data.remaining,
              ...(data.changes.length > 0 && notRewritable !== undefined ? { notRewritable } : {}),
            });
          }
        },
        unreadable(place, issue) {
          repair.passedThrough++;
          found({ ...at(place), changes: [], remaining: [], passedThrough: issue });
        },
      },
      afterChunk: () => out.flushIfFull(),
    });
    repair.framing = result.summary.framing;
    if (!result.ok) {
      await Promise.all(targets.map((each) => each.abort()));
      return { ok: false, issue: result.issue };
    }
    if (journal !== undefined) {
      const input = {
        name: options.path,
        bytes: result.summary.bytes,
        sha256: result.sha256 ?? opened.source.sha256(),
      };
      out.writeTrailer(out.trailer(input, options.output.endsWith(".gz")));
      // The journal first: an output without its journal could not be undone.
      await journal.commit();
    }
    await target.commit();
    return { ok: true, repair };
  } catch (error) {
    await Promise.all(targets.map((each) => each.abort().catch(() => {})));
    const code = opening || error instanceof OutputWriteError ? "output_unwritable" : "input_unreadable";
    return fail(code, describeError(error));
  } finally {
    await opened.source.close();
    await pools.close();
  }
}
