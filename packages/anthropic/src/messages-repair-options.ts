import type { DecodeStatus, FinishReason, Issue } from "@toolcall/core";
import type { RepairRule, ToolCallSyntax, WorkMeter } from "@toolcall/core/kit";
import type { RecoveredToolUse } from "./text-block-calls.js";

/** What became of one streamed `tool_use` block that was not clean JSON object text. */
export interface ToolUseReport {
  kind: "tool_use";
  /** The content block's index in the message. */
  index: number;
  toolUseId: string | undefined;
  name: string;
  /** What decoding found (R1); `repaired` lists its repairs. */
  status: DecodeStatus;
  repairs: string[];
  /** R3 issues of the input as it arrived. */
  issues: Issue[];
  /** Whether a tool can run on the input. One that cannot keeps the model's own text. */
  usable: boolean;
  /** Whether the input text changed. */
  changed: boolean;
  /** The `partial_json` pieces joined, as the model sent them. */
  before: string;
  /** What the client's pieces add up to now. */
  after: string;
  /** How `after` ends (core's `StreamedArguments`): `exact`, `equivalent` or `conflict`. */
  fit: "exact" | "equivalent" | "conflict";
  /** With `splitMergedCalls`, input that held several calls merged: the ids of the blocks it became, its own first. */
  split?: string[];
}

/** A call read from a `text` block (`contentCalls`), as the `tool_use` block it became; `index` is the client's. */
export interface ContentCallReport extends RecoveredToolUse {
  kind: "content_call";
}

/** What `onRepair` is told of: a `tool_use` block's input, or a call read from a text block. */
export type MessagesStreamReport = ToolUseReport | ContentCallReport;

/**
 * What a `MessagesStreamRepair` takes: repairs and the nesting limit for streamed `tool_use` input, the syntaxes
 * calls left in text are read in, and whether merged input is split.
 */
export interface MessagesRepairOptions {
  /** Repairs (R6) tried on input that is not strict JSON, e.g. `coreRepairs`. Default: none. */
  repairs?: readonly RepairRule[];
  /** Nesting limit for input text (default 1000). */
  maxDepth?: number;
  /**
   * The syntaxes a call a server left in a `text` block is read in (`@toolcall/model-formats`' `qwen3Coder`,
   * `gemma4`, …): each call becomes a `tool_use` block with a fresh `toolu_` id, as `recoverMessageContentCalls`
   * does with a whole answer. Default: none (text goes on as it came).
   */
  syntaxes?: readonly ToolCallSyntax[];
  /** The request's `tools`: recovered calls and streamed input are typed by their `input_schema`. */
  tools?: readonly unknown[] | null;
  /**
   * A `tool_use` block whose input holds several complete objects (`{"a":1}{"b":2}`) becomes one block per object
   * (core's `StreamDecider` decides; the others get ids `${id}_2`, …). Default `false`.
   */
  splitMergedCalls?: boolean;
  /** Told of every `tool_use` block whose input was not clean JSON object text, and of every call read from text. */
  onRepair?: (report: MessagesStreamReport) => void;
  /** Charged the work of the stream's decider (a test counts it; nothing is limited by it). */
  meter?: WorkMeter;
}

/**
 * Anthropic's `stop_reason` as core's finish reason: `max_tokens` cut the answer like OpenAI's `length`.
 *
 * @example
 * finishReasonOf("max_tokens"); // "length"
 */
export function finishReasonOf(stopReason: unknown): FinishReason | null {
  switch (stopReason) {
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool_calls";
    case "end_turn":
    case "stop_sequence":
      return "stop";
    default:
      return typeof stopReason === "string" && stopReason !== "" ? stopReason : null;
  }
}
