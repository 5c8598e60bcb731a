import type { SanitizeChange } from "@toolcall/core";
import type { ToolcallCallReport, ToolcallReport } from "@toolcall/core/kit";
import { METADATA_KEY } from "./decide-tool-call.js";

/** What sanitizing changed, counted by rule (the `history` of core's `ToolcallReport`). */
export function historyCounts(changes: readonly SanitizeChange[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const change of changes) counts[change.rule] = (counts[change.rule] ?? 0) + 1;
  return counts;
}

/** The exchange's report, or `undefined` when there is nothing to report. */
export function exchangeReport(args: {
  calls: readonly ToolcallCallReport[];
  history: readonly SanitizeChange[] | undefined;
}): ToolcallReport | undefined {
  const { calls, history } = args;
  if (calls.length === 0 && (history === undefined || history.length === 0)) return undefined;
  return {
    ...(history === undefined || history.length === 0 ? {} : { history: historyCounts(history) }),
    ...(calls.length === 0 ? {} : { calls: [...calls] }),
  };
}

/**
 * `providerMetadata` with the exchange's report added under `toolcall` (core's `ToolcallReport`), or the metadata
 * itself when there is nothing to report; `onReport` is told the report.
 */
export function withSummary<T extends Record<string, unknown> | undefined>(args: {
  metadata: T;
  calls: readonly ToolcallCallReport[];
  history: readonly SanitizeChange[] | undefined;
  onReport?: ((report: ToolcallReport) => void) | undefined;
}): T {
  const report = exchangeReport(args);
  if (report === undefined) return args.metadata;
  args.onReport?.(report);
  return { ...args.metadata, [METADATA_KEY]: report } as T;
}
