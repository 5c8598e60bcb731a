import { type FinishReason, type NormalizedAnswerArguments, normalizeAnswerArguments } from "@toolcall/core";
import {
  argumentIssues,
  type CallIds,
  decideStreamedCall,
  normalizeAnswerArgumentsSteps,
  type StreamDecision,
  type StreamedArguments,
  toolSchemasOf,
} from "@toolcall/core/kit";
import type { ArgumentsReport, OpenAIApi, OpenAIRepairOptions, RepairSource } from "./options.js";
import { SMALL_ARGUMENTS, weighted } from "./step-pace.js";

/**
 * One function call's arguments in a fresh answer, through core's rule (`normalizeAnswerArguments`): repaired where
 * core can, the model's own text where no tool can run on it, and a report whenever the call was not clean object
 * text.
 */
export function repairArguments(args: RepairArgumentsArgs): RepairedArguments {
  const { options } = args;
  return reported(
    args,
    normalizeAnswerArguments(args.arguments, {
      repairs: options.repairs ?? [],
      finishReason: args.finishReason,
      maxDepth: options.maxDepth,
      schema: schemaOf(args),
    }),
  );
}

/** The repair a stream's report names when a final frame repeating a call's arguments was left out (R9). */
const FRAME_REPEATED = "frame_repeated";

/**
 * The last list of tools read, and its schemas by name: the calls of one answer are repaired one after another, so
 * each answer reads its request's tools once. (A weak map entry per request cost more than reading a few tools
 * again for a stream's call decided between other answers.)
 */
let lastTools: object | undefined;
let lastSchemas: Map<string, unknown> | undefined;

/** The JSON Schema of the call's tool, when the options name the tools and the call names one of them. */
function schemaOf(args: RepairArgumentsArgs): unknown {
  const tools = args.options.tools;
  if (tools === undefined || args.name === undefined) return undefined;
  if (tools !== lastTools || lastSchemas === undefined) {
    lastSchemas = toolSchemasOf(tools);
    lastTools = tools;
  }
  return lastSchemas.get(args.name);
}

interface RepairedArguments {
  text: unknown;
  usable: boolean;
  report: ArgumentsReport | undefined;
}

interface RepairArgumentsArgs {
  api: OpenAIApi;
  source: Exclude<RepairSource, "request">;
  index: number;
  id: string | undefined;
  name: string | undefined;
  arguments: unknown;
  finishReason: FinishReason | null | undefined;
  options: OpenAIRepairOptions;
  /** Streams: report later, once the client's text is known (`reportArguments`). */
  quiet?: boolean;
  /** Whole answers that can hold one call per object of merged calls: the ids used, for the fresh ones. */
  splitIds?: CallIds;
}

/**
 * {@link repairArguments} in core's steps (`normalizeAnswerArgumentsSteps`: the strict parse, then one repair rule
 * per step), each weighted by the length of the call's text.
 */
export function* repairArgumentsSteps(args: RepairArgumentsArgs): Generator<number, RepairedArguments, void> {
  const { options } = args;
  const length = typeof args.arguments === "string" ? args.arguments.length : 1;
  if (length <= SMALL_ARGUMENTS) {
    // Short text is repaired at once: every rule over it costs less than the steps would.
    const repaired = repairArguments(args);
    yield length;
    return repaired;
  }
  const answer = yield* weighted(
    normalizeAnswerArgumentsSteps(args.arguments, {
      repairs: options.repairs ?? [],
      finishReason: args.finishReason,
      maxDepth: options.maxDepth,
      schema: schemaOf(args),
    }),
    length,
  );
  return reported(args, answer);
}

/** The client's text for the call, and a report whenever the call was not clean object text. */
function reported(args: RepairArgumentsArgs, answer: NormalizedAnswerArguments): RepairedArguments {
  const { options } = args;
  if (!answer.changed && answer.usable && answer.decoded.status === "object")
    return { text: answer.text, usable: true, report: undefined };
  const report: ArgumentsReport = {
    kind: "arguments",
    api: args.api,
    source: args.source,
    index: args.index,
    toolCallId: args.id,
    name: args.name,
    status: answer.decoded.status,
    repairs: [...answer.decoded.repairs],
    issues: argumentIssues(answer.decoded),
    usable: answer.usable,
    changed: answer.changed,
    before: args.arguments,
    after: answer.text,
  };
  const ids = args.splitIds;
  if (answer.split !== undefined && ids !== undefined) {
    // Calls merged into one: one call per object, the first with the call's id, the others with fresh ones.
    const base = args.id ?? "call";
    report.split = answer.split.map((part, at) => ({
      id: at === 0 ? base : ids.fresh(base),
      arguments: part,
    }));
    // The client gets one call per object, each object text a tool can run on: the report says so.
    report.status = "repaired";
    report.repairs = [...report.repairs, "call_split"];
    report.issues = [];
    report.usable = true;
    report.changed = true;
  }
  if (args.quiet !== true) options.onRepair?.(report);
  return { text: answer.text, usable: answer.usable, report };
}

/**
 * The report of a streamed call core's `StreamDecider` (or `decideStreamedCall`) decided: present when the call was
 * not clean object text, or what was sent could not begin the decided text. Told to `onRepair` once.
 */
export function streamReport(args: {
  api: OpenAIApi;
  index: number;
  id: string | undefined;
  name: string | undefined;
  decision: StreamDecision;
  options: OpenAIRepairOptions;
}): ArgumentsReport | undefined {
  const { decision } = args;
  if (!decision.notable) return undefined;
  const decoded = decision.answer.decoded;
  const clean = decision.answer.usable && !decision.answer.changed && decoded.status === "object";
  const report: ArgumentsReport = {
    kind: "arguments",
    api: args.api,
    source: "stream",
    index: args.index,
    toolCallId: args.id,
    name: args.name,
    status: decoded.status,
    repairs: clean ? [] : [...decoded.repairs],
    issues: clean ? [] : argumentIssues(decoded),
    usable: decision.usable,
    changed: decision.changed,
    before: clean || decision.raw !== "" ? decision.raw : undefined,
    after: decision.text,
    fit: decision.fit,
  };
  if (decision.split !== undefined) {
    // Merged calls, split as a whole answer splits them: the report says what the client got.
    report.split = decision.split.map((part) => ({ id: part.id, arguments: part.arguments }));
    report.status = "repaired";
    report.repairs = [...report.repairs, "call_split"];
    report.issues = [];
  }
  if (decision.repeats !== undefined) {
    // A frame repeating the arguments was left out (the client would have appended it): said, with its text.
    report.repeats = decision.repeats;
    report.repairs = [...report.repairs, FRAME_REPEATED];
  }
  args.options.onRepair?.(report);
  return report;
}

/**
 * A streamed call decided once it is whole: core's `decideStreamedCall` (its fresh-answer rule on the whole text,
 * fitted to what `gate` let through), reported once with what the client ends up holding.
 */
export function decideStreamedArguments(args: {
  api: OpenAIApi;
  index: number;
  id: string | undefined;
  name: string | undefined;
  /** The call's whole text as the server sent it (`""`: none). */
  raw: string;
  finishReason: FinishReason | null | undefined;
  gate: StreamedArguments;
  options: OpenAIRepairOptions;
}): { text: string; rest: string; report: ArgumentsReport | undefined } {
  const decision = decideStreamedCall({
    raw: args.raw,
    finishReason: args.finishReason ?? null,
    gate: args.gate,
    repairs: args.options.repairs ?? [],
    maxDepth: args.options.maxDepth,
  });
  const report = streamReport({ ...args, decision });
  return { text: decision.text, rest: decision.rest, report };
}
