import type {
  AIMessage,
  BaseMessage,
  InvalidToolCall,
  ToolCall as LangChainToolCall,
} from "@langchain/core/messages";
import {
  type DecodeStatus,
  decodeArguments,
  type FinishReason,
  type IssueCode,
  type NormalizedAnswerArguments,
  normalizeAnswerArguments,
} from "@toolcall/core";
import {
  type ArgumentsMapping,
  CallIds,
  isFunctionCall,
  isPlainObject,
  type RepairRule,
  TOOLCALL_REPORT_KEY,
  type ToolCallSyntax,
  type ToolcallCallReport,
  type ToolcallReport,
  toolSchemasOf,
} from "@toolcall/core/kit";
import { argumentsText } from "./arguments-text.js";
import { type CollectedToolCall, collectToolCalls } from "./collect-tool-calls.js";
import { readMessageContentCalls } from "./content-call-messages.js";
import { finishReasonOf } from "./finish-reason.js";
import { blockingIssue, createAIMessage } from "./from-neutral-messages.js";
import { jsonEqual } from "./json-equal.js";
import { isAIChunk, isAIMessageLike } from "./message-type.js";

/** What `repairToolCalls` takes: repairs, the finish reason, the tools that type arguments, content calls and splitting. */
export interface RepairToolCallsOptions {
  /** Repairs (R6) tried on arguments that fail strict JSON, e.g. `coreRepairs`. Default: none, as in core. */
  repairs?: readonly RepairRule[];
  /** Why generation stopped. Default: read from the message's `response_metadata` (see `finishReasonOf`). */
  finishReason?: FinishReason | null;
  /** Keep numbers as core's `JsonNumber` in `args` (every digit of big integers). Default: plain numbers. */
  lossless?: boolean;
  /** Nesting limit for argument text (default 1000, core's); deeper text is `invalid`. */
  maxDepth?: number;
  /**
   * The tools the model was given (OpenAI `{ type, function: { name, parameters } }` or `{ name, parameters }`):
   * each call's arguments are typed by its tool's JSON Schema, lossless conversions only (core's
   * `schemaTypedArguments`).
   */
  tools?: readonly unknown[];
  /** Syntaxes whose calls a server left in the message's text are read into tool calls and decided like the others. */
  contentCalls?: readonly ToolCallSyntax[];
  /**
   * A call whose arguments are several distinct complete objects (`{"a":1}{"b":2}`) becomes one call per object, the
   * first with its id, the others `<id>_2`, `<id>_3`… (core's `splitMergedArguments`), whole and streamed alike.
   * Default `false`.
   */
  splitMergedCalls?: boolean;
  /** Told the message's report (core's `ToolcallReport`) when anything was repaired or recovered. */
  onReport?: (report: ToolcallReport) => void;
  /** Calls already read from the text, by id, with their syntax (the stream path reads them as they come). */
  recovered?: ReadonlyMap<string, string>;
}

/** What became of a call: left as it was, recovered into `tool_calls`, or kept out of them. */
export type ToolCallOutcome = "kept" | "recovered" | "invalid";

/** The decision about one tool call: core's decode status and what the adapter did with it. */
export interface ToolCallDecision {
  /** The call's index in its stream (its position in the message for a whole message). */
  index: number;
  toolCallId?: string;
  name?: string;
  /** Core's R1 status (`object`, `empty`, `null_literal`, `double_encoded`, `repaired`, `invalid`, `truncated`, …). */
  status: DecodeStatus;
  /** Ids of the repairs applied, in order. */
  repairs: readonly string[];
  outcome: ToolCallOutcome;
  /** Why an `invalid` call cannot run: core's R3 issue code (`arguments_truncated`, `arguments_not_object`, …). */
  issue?: IssueCode;
  /** The mapping a tool receives, or the raw sentinel `{ _raw_arguments: … }` of a call that cannot run. */
  arguments: ArgumentsMapping;
  /** The arguments as the model emitted them, whenever they are not the mapping itself. */
  raw?: unknown;
  /** Calls merged into this one's arguments (`splitMergedCalls`): the ids of the calls it became, its own first. */
  split?: string[];
}

/** What `repairToolCalls` returns: the repaired message (the input itself when nothing changed) and a decision per call. */
export interface RepairToolCallsResult {
  /** The repaired message: the input itself when nothing needed to change (for an `AIMessage`). */
  message: BaseMessage;
  /** One decision per function call, in the message's order. */
  calls: ToolCallDecision[];
  /** Whether the calls changed (then the message is new and records the decisions). */
  changed: boolean;
}

/**
 * The report of a message's calls, core's one `ToolcallReport` (put under `response_metadata.toolcall`): each call
 * that was not kept as it came, or was read from the text, or `undefined` when there is none.
 *
 * @example
 * toolcallReport({ decisions: calls, recovered: new Map() }); // { calls: [{ id: "c1", status: "empty", … }] }
 */
export function toolcallReport(args: {
  decisions: readonly ToolCallDecision[];
  recovered: ReadonlyMap<string, string> | undefined;
}): ToolcallReport | undefined {
  const calls: ToolcallCallReport[] = [];
  for (const decision of args.decisions) {
    const syntax = decision.toolCallId === undefined ? undefined : args.recovered?.get(decision.toolCallId);
    if (decision.outcome === "kept" && syntax === undefined) continue;
    const report: ToolcallCallReport = {
      ...(decision.toolCallId === undefined ? {} : { id: decision.toolCallId }),
      ...(decision.name === undefined ? {} : { name: decision.name }),
      status: syntax === undefined ? decision.status : "recovered",
      repairs: syntax === undefined ? [...decision.repairs] : ["content-call", ...decision.repairs],
      usable: decision.outcome !== "invalid",
      ...(decision.issue === undefined ? {} : { issue: decision.issue }),
      ...(syntax === undefined ? {} : { syntax }),
      ...(decision.split === undefined ? {} : { split: decision.split }),
      ...(typeof decision.raw === "string" ? { raw: decision.raw } : {}),
    };
    calls.push(report);
  }
  return calls.length === 0 ? undefined : { calls };
}

/** One decided call, in LangChain's two shapes and the provider's. */
export interface DecidedToolCall {
  decision: ToolCallDecision | undefined;
  toolCall?: LangChainToolCall;
  invalidToolCall?: InvalidToolCall;
  /** The OpenAI-shaped call for `additional_kwargs.tool_calls`: canonical text, or the raw sentinel text. */
  wire: unknown;
  /** With `splitMergedCalls`: the arguments of each call this one's text held merged. */
  parts?: string[];
}

/** Core's decisions already made for some calls (a stream's, by core's `StreamDecider`), by position. */
type Answers = ReadonlyArray<NormalizedAnswerArguments | undefined>;

function decideOne(
  collected: CollectedToolCall,
  options: RepairToolCallsOptions & { finishReason: FinishReason | null | undefined },
  decided?: NormalizedAnswerArguments,
): DecidedToolCall {
  const call = collected.call;
  if (!isPlainObject(call) || !isFunctionCall(call)) return { decision: undefined, wire: call };
  const fn = isPlainObject(call.function) ? call.function : {};
  const args = fn.arguments;
  const name = typeof fn.name === "string" ? fn.name : undefined;
  const id = typeof call.id === "string" && call.id !== "" ? call.id : undefined;
  const schema =
    options.tools === undefined || name === undefined ? undefined : toolSchemasOf(options.tools).get(name);
  const decodeOptions = {
    repairs: options.repairs,
    finishReason: options.finishReason,
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
    ...(schema === undefined ? {} : { schema }),
  };
  // Core's decision for a fresh answer: valid object text keeps its bytes, what decodes to an object gets canonical
  // text, anything else keeps the model's own text (never a raw sentinel that would parse as arguments).
  const answer = decided ?? normalizeAnswerArguments(args, decodeOptions);
  const decoded =
    options.lossless && answer.usable
      ? {
          ...answer.decoded,
          arguments: decodeArguments(args, { ...decodeOptions, lossless: true }).arguments,
        }
      : answer.decoded;
  const mapped = answer.usable;
  const text = answer.text;
  const parts = options.splitMergedCalls === true ? answer.split : undefined;
  const wire = answer.changed ? { ...call, function: { ...fn, arguments: text } } : call;
  const base = {
    index: collected.index,
    ...(id === undefined ? {} : { toolCallId: id }),
    ...(name === undefined ? {} : { name }),
    status: decoded.status,
    repairs: decoded.repairs,
    arguments: decoded.arguments,
    ...("raw" in decoded ? { raw: decoded.raw } : {}),
  };
  if (mapped && name !== undefined && name !== "") {
    const outcome: ToolCallOutcome = decoded.status === "object" ? "kept" : "recovered";
    return {
      decision: { ...base, outcome },
      toolCall: { ...(id === undefined ? {} : { id }), name, args: decoded.arguments, type: "tool_call" },
      wire,
    };
  }
  // A call a length stop cut (its text, or before any text) is truncated whatever else validation says of it.
  const cut = decoded.status === "truncated";
  const issue = cut ? "arguments_truncated" : blockingIssue(call, decodeOptions, decoded.status);
  const rawText = argumentsText(args) ?? (cut ? "" : undefined);
  return {
    ...(parts === undefined ? {} : { parts }),
    decision: { ...base, outcome: "invalid", issue },
    invalidToolCall: {
      ...(id === undefined ? {} : { id }),
      ...(name === undefined ? {} : { name }),
      ...(rawText === undefined ? {} : { args: rawText }),
      error: issue,
      type: "invalid_tool_call",
    },
    wire,
  };
}

/** Decides every collected call of a message with core's rules. */
function decideToolCalls(
  collected: readonly CollectedToolCall[],
  options: RepairToolCallsOptions & { finishReason: FinishReason | null | undefined },
  answers: Answers,
): DecidedToolCall[] {
  const ids = new CallIds();
  for (const entry of collected) if (typeof entry.call?.id === "string") ids.add(entry.call.id);
  return collected.flatMap((entry, position) => {
    const decided = decideOne(entry, options, answers[position]);
    return decided.parts === undefined
      ? [decided]
      : splitDecided({ entry, parts: decided.parts, options, ids });
  });
}

/** Merged calls as one decided call each: the first with the call's id, the others with fresh ones. */
function splitDecided(args: {
  entry: CollectedToolCall;
  parts: readonly string[];
  options: RepairToolCallsOptions & { finishReason: FinishReason | null | undefined };
  ids: CallIds;
}): DecidedToolCall[] {
  const call = args.entry.call as Record<string, unknown> & { function: Record<string, unknown> };
  const base = typeof call.id === "string" && call.id !== "" ? call.id : "call";
  const splitIds = args.parts.map((_, at) => (at === 0 ? base : args.ids.fresh(base)));
  return args.parts.map((part, at) => {
    const one = decideOne(
      {
        index: args.entry.index,
        call: { ...call, id: splitIds[at], function: { ...call.function, arguments: part } } as never,
      },
      args.options,
    );
    if (one.decision !== undefined)
      one.decision = {
        ...one.decision,
        status: "repaired",
        repairs: ["call_split"],
        outcome: "recovered",
        ...(at === 0 ? { split: splitIds, raw: call.function.arguments } : {}),
      };
    return one;
  });
}

function callKey(call: { id?: unknown; name?: unknown; args?: unknown; error?: unknown }): unknown[] {
  return [call.id ?? null, call.name ?? null, call.args ?? null, call.error ?? null];
}

/** A provider-shaped call as far as a replay is concerned (stream bookkeeping such as `index` aside). */
function wireKey(entry: unknown): unknown {
  if (!isPlainObject(entry)) return entry;
  const fn = isPlainObject(entry.function) ? entry.function : {};
  return [entry.id ?? null, entry.type ?? null, fn.name ?? null, fn.arguments ?? null, entry.custom ?? null];
}

function sameCalls(message: BaseMessage, decided: readonly DecidedToolCall[]): boolean {
  const ai = message as AIMessage;
  const valid = decided.flatMap((entry) => (entry.toolCall === undefined ? [] : [callKey(entry.toolCall)]));
  const invalid = decided.flatMap((entry) =>
    entry.invalidToolCall === undefined ? [] : [callKey(entry.invalidToolCall)],
  );
  if (!jsonEqual((ai.tool_calls ?? []).map(callKey), valid)) return false;
  if (!jsonEqual((ai.invalid_tool_calls ?? []).map(callKey), invalid)) return false;
  const wire = ai.additional_kwargs?.tool_calls;
  return (
    !Array.isArray(wire) ||
    jsonEqual(
      wire.map(wireKey),
      decided.map((entry) => wireKey(entry.wire)),
    )
  );
}

/** Builds the repaired `AIMessage` from its source and the decided calls. */
function buildRepairedMessage(
  source: BaseMessage,
  decided: readonly DecidedToolCall[],
  report: ToolcallReport | undefined,
): AIMessage {
  const base = source as AIMessage;
  const metadata = { ...(base.response_metadata ?? {}) } as Record<string, unknown>;
  if (report !== undefined) metadata[TOOLCALL_REPORT_KEY] = report;
  else delete metadata[TOOLCALL_REPORT_KEY];
  return createAIMessage(
    {
      content: base.content,
      ...(base.id === undefined ? {} : { id: base.id }),
      ...(typeof base.name === "string" ? { name: base.name } : {}),
      additional_kwargs: { ...(base.additional_kwargs ?? {}) },
      response_metadata: metadata,
      ...(base.usage_metadata === undefined ? {} : { usage_metadata: base.usage_metadata }),
      tool_calls: decided.flatMap((entry) => (entry.toolCall === undefined ? [] : [entry.toolCall])),
      invalid_tool_calls: decided.flatMap((entry) =>
        entry.invalidToolCall === undefined ? [] : [entry.invalidToolCall],
      ),
    },
    decided.length === 0 ? undefined : decided.map((entry) => entry.wire),
  );
}

/**
 * Repairs the tool calls of a LangChain AI message with core's rules (R1, R6, R9): every call is decoded once from
 * the text the model emitted, not from LangChain's parse of it, so a whole `AIMessage` and the `concat` of the
 * same response's `AIMessageChunk`s get the same answer.
 *
 * - A call whose arguments decode to a mapping is in `tool_calls`: as it was (`kept`), or `recovered` (`""`,
 *   `"null"`, double-encoded text, or text an enabled repair fixed), with canonical JSON text in
 *   `additional_kwargs.tool_calls`.
 * - Any other call is in `invalid_tool_calls` with its raw text and the R3 issue code as `error`
 *   (`arguments_truncated`, `arguments_invalid_json`, `arguments_not_object`, `name_missing`, …), and the raw
 *   sentinel `{"_raw_arguments": …}` as its text in `additional_kwargs.tool_calls`, so a replay is valid JSON.
 *   `"42"`, `"[1]"` and cut-off text after a length stop never run.
 * - With `contentCalls`, calls a server left in the text are read out first (core's `readContentCalls`) and decided
 *   like the others; with `tools`, each call is typed by its tool's schema.
 * - When anything changed, the message is a new `AIMessage` with core's `ToolcallReport` in
 *   `response_metadata.toolcall` (each call not kept as it came, or read from the text), also told to `onReport`;
 *   otherwise an `AIMessage` comes back as itself.
 *
 * @example
 * const { message, calls } = repairToolCalls(await chatOpenAI.invoke(messages), { repairs: coreRepairs });
 * message.tool_calls; // what can run, args as mappings
 * calls[0].status; // "empty", "repaired", "truncated", …
 */
export function repairToolCalls(
  message: BaseMessage,
  options: RepairToolCallsOptions = {},
): RepairToolCallsResult {
  if (!isAIMessageLike(message)) return { message, calls: [], changed: false };
  const read = readMessageContentCalls({
    message,
    context: {
      syntaxes: options.contentCalls ?? [],
      ...(options.tools === undefined ? {} : { tools: options.tools }),
    },
  });
  const collected = collectToolCalls(read.message) ?? [];
  return repairCollected(
    read.message,
    collected,
    read.recovered.size === 0 ? options : { ...options, recovered: read.recovered },
  );
}

/**
 * {@link repairToolCalls} over calls already collected (the stream path collects from its raw fragments), with the
 * decisions core's `StreamDecider` already made for them (`answers`, by position).
 */
export function repairCollected(
  message: BaseMessage,
  collected: readonly CollectedToolCall[],
  options: RepairToolCallsOptions,
  answers: Answers = [],
): RepairToolCallsResult & { decided: DecidedToolCall[] } {
  const finishReason = options.finishReason !== undefined ? options.finishReason : finishReasonOf(message);
  const decided = decideToolCalls(collected, { ...options, finishReason }, answers);
  const calls = decided.flatMap((entry) => (entry.decision === undefined ? [] : [entry.decision]));
  const recovered = options.recovered !== undefined && options.recovered.size > 0;
  const changed = recovered || !sameCalls(message, decided);
  if (!changed && !isAIChunk(message)) return { message, calls, changed, decided };
  const report = changed ? toolcallReport({ decisions: calls, recovered: options.recovered }) : undefined;
  if (report !== undefined) options.onReport?.(report);
  return { message: buildRepairedMessage(message, decided, report), calls, changed, decided };
}
