import type { FinishReason } from "@toolcall/core";
import { finishReasonAtStreamEnd, isPlainObject } from "@toolcall/core/kit";

/**
 * Core's finish reason for an AI SDK one (`{ unified, raw }` in the V3 specification, a plain string before). A
 * `length` stop makes broken arguments `truncated`; `error` (what `@ai-sdk/openai-compatible` reports for a stream
 * that ended without a finish reason, or with an error) reads as a cut answer, as core reads a stream that ended
 * without one (`finishReasonAtStreamEnd`): its calls are never repaired into calls that run.
 *
 * @example
 * coreFinishReason({ unified: "length", raw: "length" }); // "length"
 * coreFinishReason({ unified: "tool-calls", raw: "tool_calls" }); // "tool_calls"
 */
export function coreFinishReason(reason: unknown): FinishReason | undefined {
  const unified = isPlainObject(reason) ? reason.unified : reason;
  const raw = isPlainObject(reason) ? reason.raw : undefined;
  switch (unified) {
    case "length":
      return "length";
    case "tool-calls":
      return "tool_calls";
    case "stop":
      return "stop";
    case "content-filter":
      return "content_filter";
    case "error":
      return finishReasonAtStreamEnd(undefined);
    case "other":
      return typeof raw === "string" && raw !== "" ? raw : "other";
    default:
      return undefined;
  }
}
