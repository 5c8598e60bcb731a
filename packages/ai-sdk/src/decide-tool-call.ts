import {
  type FinishReason,
  type IssueCode,
  type NormalizedAnswerArguments,
  normalizeAnswerArguments,
} from "@toolcall/core";
import {
  argumentIssues,
  type RepairRule,
  TOOLCALL_REPORT_KEY,
  type ToolcallCallReport,
} from "@toolcall/core/kit";
import type { ModelToolCall } from "./ai-sdk-types.js";
import { unusableCallInput } from "./unusable-call-input.js";

/**
 * The key of `providerMetadata` where this package reports what it did (core's `TOOLCALL_REPORT_KEY`, the same at
 * every door): a call's own report on the call, the answer's `ToolcallReport` on the answer or the `finish` part.
 *
 * @example
 * result.steps[0].toolCalls[0].providerMetadata?.[METADATA_KEY]; // { id: "c1", status: "repaired", repairs: ["python-literal"], … }
 */
export const METADATA_KEY = TOOLCALL_REPORT_KEY;

/** What `decideToolCall` takes besides the call: repairs, the nesting limit, and whether merged calls are split. */
export interface DecideOptions {
  /** Repairs (R6) tried on arguments that fail strict JSON, e.g. `coreRepairs`. Default: none, as in core. */
  repairs?: readonly RepairRule[];
  /** Nesting limit for argument text (default 1000, core's); deeper text is `invalid`. */
  maxDepth?: number;
  /** Calls whose arguments hold several distinct complete objects become one call per object. Default `false`. */
  splitMergedCalls?: boolean;
}

export interface DecidedToolCall {
  /** The call as it goes on: the input itself when nothing needed deciding. */
  call: ModelToolCall;
  /** Present when the call was not clean object text. */
  report?: ToolcallCallReport;
  /**
   * With `splitMergedCalls`, the arguments of each call this one's input held merged, in order (the first is
   * `call`'s input now); the caller gives the others their ids.
   */
  split?: string[];
}

function issueOf(decoded: Parameters<typeof argumentIssues>[0]): IssueCode {
  return (
    argumentIssues(decoded).find((found) => found.severity === "error")?.code ?? "arguments_raw_sentinel"
  );
}

/**
 * Decides one tool call of a fresh answer with core's rules: clean object text goes on untouched; text that
 * decodes to an object (`""`, `"null"`, double-encoded, repaired by an enabled rule, typed by its tool's `schema`)
 * gets its canonical JSON text; anything else (broken, cut by a length stop, not an object, nested deeper than the
 * limit) keeps the model's text, so the SDK reports it as the invalid call it is (text the SDK would still read as an
 * object, such as JSON nested deeper than core's limit, goes as a JSON string literal of itself: see
 * `unusableCallInput`). Every call that was not clean carries its report in `providerMetadata.toolcall`.
 *
 * @example
 * const call = { type: "tool-call", toolCallId: "c1", toolName: "w", input: "" } as const;
 * decideToolCall({ call, finishReason: "tool_calls" }).call.input; // "{}"
 */
export function decideToolCall(
  args: DecideOptions & {
    call: ModelToolCall;
    finishReason: FinishReason | undefined;
    /** The JSON Schema of the call's tool (from the request's tools). */
    schema?: unknown;
  },
): DecidedToolCall {
  const decision = normalizeAnswerArguments(args.call.input, {
    repairs: args.repairs,
    finishReason: args.finishReason,
    ...(args.maxDepth === undefined ? {} : { maxDepth: args.maxDepth }),
    ...(args.schema === undefined ? {} : { schema: args.schema }),
  });
  const split = args.splitMergedCalls === true ? decision.split : undefined;
  return decidedToolCall({ call: args.call, decision, ...(split === undefined ? {} : { split }) });
}

/**
 * A tool call shaped after core's decision on its input (`normalizeAnswerArguments`, or a `StreamDecider`'s
 * `decision.answer`): itself when clean, else with the decided input and its report; with `split`, the first of the
 * calls it held (the report says `call_split`, its ids are the caller's to add).
 *
 * @example
 * decidedToolCall({ call, decision: normalizeAnswerArguments(call.input) }).call;
 */
export function decidedToolCall(args: {
  call: ModelToolCall;
  decision: NormalizedAnswerArguments;
  split?: string[];
}): DecidedToolCall {
  const { call, decision, split } = args;
  const decoded = decision.decoded;
  if (decoded.status === "object" && !decision.changed && decision.usable) return { call };
  const report: ToolcallCallReport = {
    id: call.toolCallId,
    name: call.toolName,
    status: decoded.status,
    // The decode's list is readonly (often the shared empty one): the report holds its own.
    repairs: split === undefined ? [...decoded.repairs] : [...decoded.repairs, "call_split"],
    usable: decision.usable,
  };
  if (split !== undefined) {
    report.status = "repaired";
    report.usable = true;
  } else if (!decision.usable) report.issue = issueOf(decoded);
  if (typeof call.input === "string") report.raw = call.input;
  const providerMetadata = { ...call.providerMetadata, [METADATA_KEY]: { ...report } };
  const input =
    split !== undefined
      ? (split[0] as string)
      : decision.changed && typeof decision.text === "string"
        ? decision.text
        : !decision.usable && typeof call.input === "string"
          ? unusableCallInput(call.input)
          : call.input;
  return { call: { ...call, input, providerMetadata }, report, ...(split === undefined ? {} : { split }) };
}

/** The report a tool call carries in `providerMetadata.toolcall`, if any. */
export function reportOf(call: { providerMetadata?: unknown }): Partial<ToolcallCallReport> | undefined {
  const metadata = call.providerMetadata as Record<string, unknown> | undefined;
  const report = metadata?.[METADATA_KEY];
  return typeof report === "object" && report !== null ? (report as Partial<ToolcallCallReport>) : undefined;
}
