import {
  type DecodeStatus,
  type FinishReason,
  type IssueCode,
  type NormalizedAnswerArguments,
  normalizeAnswerArguments,
  type RepairRule,
} from "@toolcall/core";
import { argumentIssues } from "@toolcall/core/kit";
import type { ModelToolCall } from "./ai-sdk-types.js";
import { unusableCallInput } from "./unusable-call-input.js";

/**
 * The key of `providerMetadata` where this package reports what it did.
 *
 * @example
 * result.steps[0].toolCalls[0].providerMetadata?.[METADATA_KEY]; // { status: "repaired", repairs: ["python-literal"], … }
 */
export const METADATA_KEY = "toolcall";

/** What became of one tool call, as reported in `providerMetadata.toolcall` (plain JSON). */
export interface ToolCallReport {
  toolCallId: string;
  toolName: string;
  /** Core's R1 status (`empty`, `null_literal`, `double_encoded`, `repaired`, `invalid`, `truncated`, …). */
  status: DecodeStatus;
  /** Ids of the repairs applied, in order. */
  repairs: string[];
  /** Whether a tool can run on the call; a call that cannot keeps the model's text, and the SDK reports it. */
  usable: boolean;
  /** Why a call cannot run: core's R3 issue code (`arguments_truncated`, `arguments_invalid_json`, …). */
  issue?: IssueCode;
  /** The arguments as the model wrote them, when they were changed or cannot run. */
  raw?: string;
}

export interface DecideOptions {
  /** Repairs (R6) tried on arguments that fail strict JSON, e.g. `coreRepairs`. Default: none, as in core. */
  repairs?: readonly RepairRule[];
  /** Nesting limit for argument text (default 1000, core's); deeper text is `invalid`. */
  maxDepth?: number;
}

export interface DecidedToolCall {
  /** The call as it goes on: the input itself when nothing needed deciding. */
  call: ModelToolCall;
  /** Present when the call was not clean object text. */
  report?: ToolCallReport;
}

function issueOf(decoded: Parameters<typeof argumentIssues>[0]): IssueCode {
  return (
    argumentIssues(decoded).find((found) => found.severity === "error")?.code ?? "arguments_raw_sentinel"
  );
}

/**
 * Decides one tool call of a fresh answer with core's rules: clean object text goes on untouched; text that
 * decodes to an object (`""`, `"null"`, double-encoded, repaired by an enabled rule) gets its canonical JSON text;
 * anything else (broken, cut by a length stop, not an object, nested deeper than the limit) keeps the model's text,
 * so the SDK reports it as the invalid call it is (text the SDK would still read as an object, such as JSON nested
 * deeper than core's limit, goes as a JSON string literal of itself: see `unusableCallInput`). Every call that was
 * not clean carries its report in `providerMetadata.toolcall`.
 *
 * @example
 * decideToolCall({ type: "tool-call", toolCallId: "c1", toolName: "w", input: "" }, {}, "tool_calls").call.input; // "{}"
 */
export function decideToolCall(
  call: ModelToolCall,
  options: DecideOptions,
  finishReason: FinishReason | undefined,
): DecidedToolCall {
  const decision = normalizeAnswerArguments(call.input, {
    repairs: options.repairs,
    finishReason,
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
  });
  return decidedToolCall(call, decision);
}

/**
 * A tool call shaped after core's decision on its input (`normalizeAnswerArguments`, or a `StreamDecider`'s
 * `decision.answer`): itself when clean, else with the decided input and its report.
 *
 * @example
 * decidedToolCall(call, normalizeAnswerArguments(call.input)).call;
 */
export function decidedToolCall(call: ModelToolCall, decision: NormalizedAnswerArguments): DecidedToolCall {
  const decoded = decision.decoded;
  if (decoded.status === "object" && !decision.changed && decision.usable) return { call };
  const report: ToolCallReport = {
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    status: decoded.status,
    repairs: decoded.repairs,
    usable: decision.usable,
  };
  if (!decision.usable) report.issue = issueOf(decoded);
  if (typeof call.input === "string") report.raw = call.input;
  const providerMetadata = { ...call.providerMetadata, [METADATA_KEY]: { ...report } };
  const input =
    decision.changed && typeof decision.text === "string"
      ? decision.text
      : !decision.usable && typeof call.input === "string"
        ? unusableCallInput(call.input)
        : call.input;
  return { call: { ...call, input, providerMetadata }, report };
}

/** The report a tool call carries in `providerMetadata.toolcall`, if any. */
export function reportOf(call: { providerMetadata?: unknown }): Partial<ToolCallReport> | undefined {
  const metadata = call.providerMetadata as Record<string, unknown> | undefined;
  const report = metadata?.[METADATA_KEY];
  return typeof report === "object" && report !== null ? (report as Partial<ToolCallReport>) : undefined;
}
