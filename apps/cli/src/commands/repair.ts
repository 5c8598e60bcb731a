import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { createRecordEngine } from "@toolcall/core";
import {
  describeError,
  findingPlace,
  isStandardOutput,
  JournaledOutput,
  type OutputTarget,
  OutputWriteError,
  openInput,
  openOutputFile,
  PoolCache,
  processFile,
  providerCheckOf,
} from "@toolcall/files/parts";
import { makeBackup, openDestination } from "../pipeline/repair-destination.js";
import type {
  RepairFileSummary,
  RepairOptions,
  RepairRunResult,
  RepairSummary,
} from "../pipeline/repair-options.js";
import { createPainter } from "../report/colors.js";
import { humanRepairSummary } from "../report/human-repair-summary.js";
import { JsonReport } from "../report/json-report.js";
import { Progress } from "../report/progress.js";
import { findingJson, humanRepairFinding, type RepairFinding } from "../report/repair-findings.js";
import { ReportStream } from "../report/report-stream.js";

export type {
  RepairFileSummary,
  RepairOptions,
  RepairRunResult,
  RepairSummary,
} from "../pipeline/repair-options.js";

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
  const processor = createRecordEngine({
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
    skipped: [...(options.skipped ?? [])],
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

  const fileSummaryOf = (file: string): RepairFileSummary => ({
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
  });
  for (const { file, issue } of options.unreadable ?? []) {
    summary.files++;
    files.push({ ...fileSummaryOf(file), error: issue });
  }
  for (const file of options.files) {
    summary.files++;
    const fileSummary = fileSummaryOf(file);
    files.push(fileSummary);
    // A file of a directory tree has its own output and journal, at its place in the output's and journal's trees.
    const target = options.targets?.get(file);
    const output = target?.output ?? options.output;
    const journal = target !== undefined ? target.journal : options.journal;
    const opened = await openInput({
      path: file,
      hash: journal !== undefined,
      ...(options.stdin ? { stdin: options.stdin } : {}),
    });
    if (!opened.ok) {
      fileSummary.error = opened.issue;
      continue;
    }
    if (target !== undefined) {
      for (const path of [target.output, target.journal])
        if (path !== undefined) await mkdir(dirname(path), { recursive: true }).catch(() => {});
    }
    const destination = await openDestination(
      file,
      {
        inPlace: options.inPlace,
        backupSuffix: options.backupSuffix,
        ...(output !== undefined ? { output } : {}),
        ...(journal !== undefined ? { journal } : {}),
      },
      stdout,
    );
    if (!destination.ok) {
      await opened.source.close();
      fileSummary.error = { code: destination.code, message: destination.message };
      continue;
    }
    let journalTarget: OutputTarget | undefined;
    if (journal !== undefined) {
      try {
        journalTarget = (await openOutputFile({ destination: journal })).target;
      } catch (error) {
        await destination.target.abort();
        await opened.source.close();
        fileSummary.error = {
          code: "output_unwritable",
          message: `${journal}: ${describeError(error)}`,
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

    let result: Awaited<ReturnType<typeof processFile>>;
    try {
      result = await processFile({
        source: opened.source,
        maxLineBytes: options.maxLineBytes,
        context,
        pool: await pools.for(opened.source.size),
        output: out,
        target: destination.target,
        hashInput: journalTarget !== undefined,
        handler: {
          format(format) {
            fileSummary.formats.push(format.id);
          },
          consume(format, place, data) {
            if (data.kind !== "repair") return;
            fileSummary.records++;
            fileSummary.conversations += data.conversations;
            const where = {
              ...findingPlace(file, place),
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
              ...findingPlace(file, place),
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
      if (error instanceof OutputWriteError) {
        // The output or the journal could not take the bytes (a full disk): that file is named, not the input.
        progress.done();
        await opened.source.close();
        fileSummary.error = { code: "output_unwritable", message: describeError(error) };
        continue;
      }
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
              { name: file, bytes: result.summary.bytes, sha256: result.sha256 ?? opened.source.sha256() },
              opened.source.gzip,
            ),
          );
          await journalTarget.commit();
          fileSummary.journal = journal;
        }
      } else {
        if (journalTarget !== undefined) {
          const gzip = options.inPlace ? opened.source.gzip : (output ?? "").endsWith(".gz");
          out.writeTrailer(
            out.trailer(
              { name: file, bytes: result.summary.bytes, sha256: result.sha256 ?? opened.source.sha256() },
              gzip,
            ),
          );
          // The journal first: an output without its journal could not be undone.
          await journalTarget.commit();
          fileSummary.journal = journal;
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
