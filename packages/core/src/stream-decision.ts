import { type NormalizedAnswerArguments, normalizeAnswerArguments } from "./normalize-answer-arguments.js";
import type { RepairRule } from "./repairs/repair-rule.js";
import type { StreamedArguments, StreamedArgumentsEnd } from "./streamed-arguments.js";
import type { FinishReason } from "./types.js";

/** What a streamed call became once it was decided (R9): core's fresh-answer rule, fitted to what was sent. */
export interface StreamDecision {
  /** The call's whole argument text as the server sent it (`""`: none). */
  raw: string;
  /** Core's fresh-answer rule on `raw` (`normalizeAnswerArguments`): status, repairs, decoded mapping. */
  answer: NormalizedAnswerArguments;
  /** The text the client holds once `rest` is sent. */
  text: string;
  /** What to send after everything the call already handed on (`""`: nothing more). */
  rest: string;
  /** How `text` ends (see `StreamedArgumentsEnd.fit`); `conflict` makes the call unusable. */
  fit: StreamedArgumentsEnd["fit"];
  /** Whether a tool can run on `text`. */
  usable: boolean;
  /** Whether `text` differs from `raw`. */
  changed: boolean;
  /** The finish reason the call was decided with (`null`: decided before the stream finished). */
  finishReason: FinishReason | null;
  /** Whether the call was not clean object text as sent (an adapter reports it). */
  notable: boolean;
  /**
   * With `splitMergedCalls`, a call whose text held several calls merged (`{"a":1}{"b":2}`): one entry per call it
   * became, in order. The first is the call itself (`text` is its arguments); each other one is a new call the client
   * gets after it, with the name of this one, and the id and stream index the decider gave it.
   */
  split?: { id: string; index: number; arguments: string }[];
  /**
   * Final frames that repeated the call's complete arguments (R9), as they came: the client gets the arguments once,
   * so these frames' text is left out of what it gets, and the call is `notable` (a door reports `frame_repeated`).
   */
  repeats?: string[];
}

/** What `decideStreamedCall` takes: the call's whole text, the finish reason, and what its gate handed on. */
export interface DecideStreamedCallOptions {
  /** The call's whole text as the server sent it (`""`: none). */
  raw: string;
  finishReason: FinishReason | null;
  /** The call's gate: what it handed on. */
  gate: StreamedArguments;
  repairs?: readonly RepairRule[];
  maxDepth?: number;
  /** The JSON Schema of the call's tool: arguments typed by it, lossless conversions only (`schemaTypedArguments`). */
  schema?: unknown;
  /** Merged calls are split (see `StreamDecision.split`; the decider gives the ids). Default `false`. */
  splitMergedCalls?: boolean;
}

/**
 * Decides one streamed call once (R9): core's fresh-answer rule on its whole text (`normalizeAnswerArguments`), then
 * what its client still needs after the fragments its gate let through (`StreamedArguments.end`). A call whose sent
 * fragments cannot begin the decided text keeps the model's text and is unusable (`fit: "conflict"`).
 *
 * @example
 * const gate = new StreamedArguments();
 * gate.push("{'a': 1}"); // false: held
 * decideStreamedCall({ raw: "{'a': 1}", finishReason: "tool_calls", gate, repairs: coreRepairs }).rest; // '{"a":1}'
 */
export function decideStreamedCall(options: DecideStreamedCallOptions): StreamDecision {
  const decision = decideOnce(options);
  // Values already handed on cannot be typed any more: the call goes as it came, untyped, rather than unusable.
  if (options.schema !== undefined && decision.fit === "conflict")
    return decideOnce({ ...options, schema: undefined });
  return decision;
}

function decideOnce(options: DecideStreamedCallOptions): StreamDecision {
  const { raw, finishReason } = options;
  const answer = normalizeAnswerArguments(raw === "" ? undefined : raw, {
    repairs: options.repairs ?? [],
    finishReason: finishReason ?? undefined,
    maxDepth: options.maxDepth,
    ...(options.schema === undefined ? {} : { schema: options.schema }),
  });
  if (options.splitMergedCalls === true && answer.split !== undefined) {
    const split = splitDecision({ options, answer, parts: answer.split });
    if (split !== undefined) return split;
  }
  const text = typeof answer.text === "string" ? answer.text : raw;
  const end = options.gate.end({ text, usable: answer.usable, raw });
  const usable = answer.usable && end.fit !== "conflict";
  const clean = !answer.changed && answer.usable && answer.decoded.status === "object";
  return {
    raw,
    answer,
    text: end.text,
    rest: end.rest,
    fit: end.fit,
    usable,
    changed: end.text !== raw,
    finishReason,
    notable: !clean || end.fit === "conflict",
  };
}

/** The decision for merged calls: the call keeps the first object, when what was sent can begin it. */
function splitDecision(args: {
  options: DecideStreamedCallOptions;
  answer: NormalizedAnswerArguments;
  parts: readonly string[];
}): StreamDecision | undefined {
  const { raw, finishReason, gate } = args.options;
  const first = args.parts[0] as string;
  const end = gate.end({ text: first, usable: true, raw });
  // What was sent cannot begin the first object: the call keeps the model's text, as unusable as it came.
  if (end.fit === "conflict") return undefined;
  return {
    raw,
    answer: args.answer,
    text: end.text,
    rest: end.rest,
    fit: end.fit,
    usable: true,
    changed: true,
    finishReason,
    notable: true,
    split: args.parts.map((part) => ({ id: "", index: -1, arguments: part })),
  };
}
