import {
  type DecodeResult,
  type FinishReason,
  isDecodedToObject,
  isRawSentinel,
  normalizeArguments,
  type RepairRule,
} from "@toolcall/core";

// Stand-in for core's fresh-answer rule (`normalizeAnswerArguments`), until it is on main: then this file goes and
// the callers import core's.

export interface AnswerArguments {
  /** The text the call gets: the model's own text unless it decodes to an object another way. */
  text: unknown;
  decoded: DecodeResult;
  changed: boolean;
  /** Whether a tool can run on the call. */
  usable: boolean;
}

export function answerArguments(
  value: unknown,
  options: { repairs?: readonly RepairRule[]; finishReason?: FinishReason | null; maxDepth?: number },
): AnswerArguments {
  const blank = value === undefined || value === null || (typeof value === "string" && value.trim() === "");
  if (options.finishReason === "length" && blank) {
    return {
      text: value,
      decoded: { arguments: { _raw_arguments: value ?? "" }, status: "truncated", repairs: [], raw: value },
      changed: false,
      usable: false,
    };
  }
  const normalized = normalizeArguments(value, { ...options, policy: "keep" });
  const usable = isDecodedToObject(normalized.decoded.status) && !isRawSentinel(normalized.decoded.arguments);
  return { ...normalized, usable };
}
