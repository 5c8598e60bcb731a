import type { ConformanceImplementation } from "@toolcall/conformance";
import {
  coreRepairs,
  decodeArguments,
  encodeArguments,
  prepareForTemplate,
  type RepairRule,
  sanitizeHistory,
  ToolCallAccumulator,
  type ToolCallDelta,
  validateHistory,
  validateToolCall,
} from "../src/index.js";

/**
 * Maps the suite's repair ids (a set; `"core"` is every core repair) onto core's rules in core's pipeline order;
 * `undefined` for an id core does not ship.
 */
export function resolveCoreRepairs(ids: readonly string[]): RepairRule[] | undefined {
  const known = new Set(coreRepairs.map((r) => r.id));
  if (ids.some((id) => id !== "core" && !known.has(id))) return undefined;
  return coreRepairs.filter((r) => ids.includes("core") || ids.includes(r.id));
}

/** `@toolcall/core` as the conformance suite calls it. */
export const coreImplementation: ConformanceImplementation = {
  name: "@toolcall/core",
  decode: (input, options) => decodeArguments(input, options),
  encode: (input, options) => encodeArguments(input, options),
  validate: (call, options) => validateToolCall(call, options),
  validateHistory: (messages, options) => validateHistory(messages as unknown[], options),
  sanitize: (messages, options) => sanitizeHistory(messages as unknown[], options),
  prepareForTemplate: (messages, options) => prepareForTemplate(messages as unknown[], options),
  accumulate: (input, options) => {
    const accumulator = new ToolCallAccumulator();
    for (const delta of input.deltas) accumulator.push(delta as ToolCallDelta);
    return accumulator.finish({ ...options, finishReason: input.finishReason ?? null }).map((call) => ({
      ...call,
      status: call.decoded.status,
      decoded: call.decoded.arguments,
    }));
  },
  resolveRepairs: resolveCoreRepairs,
};
