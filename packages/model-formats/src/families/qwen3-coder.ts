import { serializeJson } from "@toolcall/core";
import { type EncodableToolCall, isPlainObject, type ToolCallSyntax } from "@toolcall/core/kit";
import { pyStr, toPython } from "@toolcall/jinja";
import {
  defineFunctionCallSyntax,
  type FunctionCallFamily,
  functionCallEncoder,
} from "../engine/function-call-family.js";
import { THINK } from "../engine/text-loop.js";

export const QWEN_CALL_OPEN = "<tool_call>";
export const QWEN_CALL_CLOSE = "</tool_call>";

/** A value as the Qwen3-Coder template writes it: mappings and lists as `tojson`, anything else as Python's `str()`. */
function qwenValue(value: unknown): string {
  if (isPlainObject(value) || Array.isArray(value)) {
    const written = serializeJson(value, { style: "python" });
    return written.success ? written.value : "null";
  }
  return pyStr(toPython(value));
}

const QWEN3_CODER: FunctionCallFamily = {
  id: "qwen3-coder",
  name: "Qwen3-Coder / Qwen3.5 / Qwen3.6 / Nemotron 3 (<function=…><parameter=…>)",
  callOpen: QWEN_CALL_OPEN,
  callClose: QWEN_CALL_CLOSE,
  reasoning: THINK,
  valueOnLines: true,
  writeValue: qwenValue,
};
const encode = functionCallEncoder(QWEN3_CODER);

/**
 * Encodes calls as the Qwen3-Coder, Qwen3.5 and Qwen3.6 templates render them: per call
 * `\n<tool_call>\n<function=NAME>\n`, per argument `<parameter=K>\nV\n</parameter>\n`, then `</function>\n</tool_call>`.
 *
 * @example
 * encodeQwen3Coder([{ function: { name: "get_weather", arguments: '{"city": "Paris", "days": 3}' } }]);
 * // "\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>"
 */
export function encodeQwen3Coder(calls: readonly EncodableToolCall[]): string {
  return encode(calls);
}

/**
 * Qwen3-Coder, Qwen3.5, Qwen3.6 and NVIDIA Nemotron 3:
 * `<tool_call>\n<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>\n</tool_call>`, reasoning in
 * `<think>\n…\n</think>\n\n` before the call (the generation prompt of Qwen3.5 and Nemotron 3 opens it: pass
 * `startInReasoning: true`). The `<function=…><parameter=…>` reader is the one Seed-OSS uses.
 *
 * Rules: each value is the text between its tags, one newline each side removed, typed by the tool's JSON Schema
 * (core's `convertParameterValue`); without a schema it stays text. A value ends at the first `</parameter>` followed
 * by another parameter, `</function>` or the end of the text; several functions in one `<tool_call>` are read;
 * `<function=` at the very start with `<tool_call>` missing is read (`call_unopened`); a call cut short stays in
 * content (`call_truncated`); a section cut after whole calls keeps them (`section_unclosed`). Arguments stream pair by
 * pair.
 *
 * @example
 * qwen3Coder.parse("<think>\nThe user wants the weather.\n</think>\n\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>");
 * // { reasoning: "The user wants the weather.", content: null, toolCalls: [{ function: { name: "get_weather", arguments: '{"city": "Paris"}' }, … }], issues: [] }
 */
export const qwen3Coder: ToolCallSyntax = defineFunctionCallSyntax(QWEN3_CODER);
