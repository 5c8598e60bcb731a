import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import {
  defineFunctionCallSyntax,
  type FunctionCallFamily,
  functionCallEncoder,
} from "../engine/function-call-family.js";
import { type ReasoningSyntax, THINK } from "../engine/text-loop.js";
import { QWEN3_CODER } from "./qwen3-coder.js";

/** Step-3.5's reasoning: `<think>\n…\n</think>\n`, one newline before the content (Qwen3-Coder's templates write two). */
export const STEP35_THINK: ReasoningSyntax = { ...THINK, after: "\n" };

/**
 * StepFun Step-3.5: Qwen3-Coder's grammar, values on lines of their own and written as Qwen3-Coder writes them (its
 * template is Qwen3-Coder's call writing; vLLM's and SGLang's Step-3.5 parsers are Qwen3-Coder's); only the white
 * space around calls differs: each call follows the content with nothing between, calls back to back.
 */
const STEP35: FunctionCallFamily = {
  ...QWEN3_CODER,
  id: "step3p5",
  name: "StepFun Step-3.5 (<tool_call><function=…><parameter=…>, calls back to back)",
  reasoning: STEP35_THINK,
  callLead: "",
};
const encode = functionCallEncoder(STEP35);

/**
 * Encodes calls as StepFun Step-3.5's template renders them: per call `<tool_call>\n<function=NAME>\n`, per argument
 * `<parameter=K>\nV\n</parameter>\n` (strings as they are, mappings and lists as `tojson`, anything else as Python's
 * `str()`), then `</function>\n</tool_call>`, calls back to back.
 *
 * @example
 * encodeStep35([{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } }]);
 * // "<tool_call>\n<function=get_weather>\n<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>"
 */
export function encodeStep35(calls: readonly EncodableToolCall[]): string {
  return encode(calls);
}

/**
 * StepFun Step-3.5 (Step-3.5-Flash): `<tool_call>\n<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>\n</tool_call>`,
 * reasoning in `<think>\n…\n</think>\n`, which the generation prompt opens (pass `startInReasoning: true`).
 *
 * Rules: {@link qwen3Coder}'s reader, unchanged (one newline each side of a value is syntax; values typed by the
 * tool's schema; `call_unopened`, `call_truncated`, `call_unclosed`, `section_unclosed` as there). Only the encoder
 * differs, so a round trip on the real template writes its bytes. From output alone the text reads as Qwen3-Coder's
 * (`detectOutputSyntax` names `qwen3-coder`).
 *
 * @example
 * step35.parse("The user wants Tokyo.\n</think>\n<tool_call>\n<function=get_weather>\n<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call>", { startInReasoning: true }).reasoning;
 * // "The user wants Tokyo."
 */
export const step35: ToolCallSyntax = defineFunctionCallSyntax(STEP35);
