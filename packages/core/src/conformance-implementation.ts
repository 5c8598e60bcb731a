import {
  coreRepairs,
  decodeArguments,
  encodeArguments,
  normalizeAnswerArguments,
  prepareForTemplate,
  providerVerdict,
  sanitizeHistory,
  validateHistory,
  validateToolCall,
} from "./index.js";
import {
  finishReasonAtStreamEnd,
  type RepairRule,
  type StreamCallDelta,
  StreamDecider,
  type StreamEvent,
  ToolCallAccumulator,
  type ToolCallDelta,
} from "./kit.js";

// The suite passes the options of its vectors through; core's functions read the ones they know.
// biome-ignore lint/suspicious/noExplicitAny: options arrive as data from vector files
type Options = any;

/**
 * Maps the suite's repair ids (a set; `"core"` is every core repair) onto core's rules in core's pipeline order;
 * `undefined` for an id core does not ship.
 */
export function resolveCoreRepairs(ids: readonly string[]): RepairRule[] | undefined {
  const known = new Set(coreRepairs.map((r) => r.id));
  if (ids.some((id) => id !== "core" && !known.has(id))) return undefined;
  return coreRepairs.filter((r) => ids.includes("core") || ids.includes(r.id));
}

/**
 * `@toolcall/core` as the conformance suite (`@toolcall/conformance`) calls it: hand it to `describeConformance` or
 * `toolcall-conformance run`. It has the suite's `ConformanceImplementation` shape without importing the suite.
 *
 * @example
 * import { describeConformance } from "@toolcall/conformance/vitest";
 * import { coreImplementation } from "@toolcall/core/conformance";
 * describeConformance({ implementation: coreImplementation });
 */
export const coreImplementation = {
  name: "@toolcall/core",
  decode: (input: unknown, options: Options) => decodeArguments(input, options),
  encode: (input: unknown, options: Options) => encodeArguments(input, options),
  validate: (call: unknown, options: Options) => validateToolCall(call, options),
  validateHistory: (messages: unknown, options: Options) => validateHistory(messages as unknown[], options),
  sanitize: (messages: unknown, options: Options) => sanitizeHistory(messages as unknown[], options),
  prepareForTemplate: (messages: unknown, options: Options) =>
    prepareForTemplate(messages as unknown[], options),
  accumulate: (input: { deltas: unknown[]; finishReason?: string | null }, options: Options) => {
    const accumulator = new ToolCallAccumulator();
    for (const delta of input.deltas) accumulator.push(delta as ToolCallDelta);
    // A vector without a finish reason is a stream that ended without one (R9): cut.
    return accumulator
      .finish({ ...options, finishReason: finishReasonAtStreamEnd(input.finishReason) })
      .map((call) => ({
        ...call,
        status: call.decoded.status,
        decoded: call.decoded.arguments,
      }));
  },
  decideStream: (input: { deltas: unknown[]; finishReason?: string | null }, options: Options) => {
    const decider = new StreamDecider({
      repairs: options.repairs ?? [],
      maxDepth: options.maxDepth,
      splitMergedCalls: options.splitMergedCalls === true,
    });
    const opened = new Map<number, number | "finish">();
    const take = (events: readonly StreamEvent[], at: number | "finish") => {
      for (const event of events)
        if (event.type === "open" && !opened.has(event.call.position)) opened.set(event.call.position, at);
    };
    input.deltas.forEach((delta, at) => {
      take(decider.push(delta as StreamCallDelta), at);
    });
    take(decider.finish(input.finishReason ?? null), "finish");
    // The client's calls in order: a split call, then the calls it became.
    return decider.calls.flatMap((call) => [
      {
        index: call.clientIndex,
        id: call.call.id,
        name: call.call.name,
        text: call.decision?.text,
        usable: call.decision?.usable,
        status: call.decision?.answer.decoded.status,
        opened: opened.get(call.position),
      },
      ...(call.decision?.split?.slice(1) ?? []).map((part) => ({
        index: part.index,
        id: part.id,
        name: call.call.name,
        text: part.arguments,
        usable: true,
        opened: "finish" as const,
      })),
    ]);
  },
  normalizeAnswer: (input: unknown, options: Options) => {
    const answer = normalizeAnswerArguments(input, options);
    return {
      text: answer.text,
      status: answer.decoded.status,
      changed: answer.changed,
      usable: answer.usable,
      repairs: answer.decoded.repairs,
    };
  },
  validateProvider: (messages: unknown, options: Options) =>
    validateHistory(messages as unknown[], { provider: options.provider }),
  sanitizeProvider: (messages: unknown, options: Options) => sanitizeHistory(messages as unknown[], options),
  providerVerdict: (messages: unknown, options: Options) =>
    providerVerdict(messages as unknown[], { providers: options.providers }),
  resolveRepairs: resolveCoreRepairs,
};
