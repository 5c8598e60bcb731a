import type { SanitizeChange } from "@toolcall/core";
import { METADATA_KEY, type ToolCallReport } from "./decide-tool-call.js";

/** What `providerMetadata.toolcall` of a whole answer (or a stream's `finish` part) holds. */
export interface ToolcallSummary {
  /** One report per call of the answer that was not clean object text. */
  calls: ToolCallReport[];
  /** What sanitizing the prompt changed (R4), one entry per change, for the call that carried this answer. */
  history?: Array<Pick<SanitizeChange, "rule" | "messageIndex" | "toolCallId" | "status" | "repairs">>;
}

/** The history part of a summary: plain JSON, without the values the changes replaced. */
export function historySummary(changes: readonly SanitizeChange[]): NonNullable<ToolcallSummary["history"]> {
  return changes.map((change) => ({
    rule: change.rule,
    messageIndex: change.messageIndex,
    ...(change.toolCallId === undefined ? {} : { toolCallId: change.toolCallId }),
    ...(change.status === undefined ? {} : { status: change.status }),
    ...(change.repairs === undefined ? {} : { repairs: change.repairs }),
  }));
}

/**
 * `providerMetadata` with this package's summary added under `toolcall`, or the metadata itself when there is
 * nothing to report.
 */
export function withSummary<T extends Record<string, unknown> | undefined>(
  metadata: T,
  calls: readonly ToolCallReport[],
  history: readonly SanitizeChange[] | undefined,
): T {
  if (calls.length === 0 && (history === undefined || history.length === 0)) return metadata;
  const summary: ToolcallSummary = { calls: [...calls] };
  if (history !== undefined && history.length > 0) summary.history = historySummary(history);
  return { ...metadata, [METADATA_KEY]: summary } as T;
}
