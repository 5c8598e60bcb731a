import {
  type EncodableToolCall,
  isPlainObject,
  serializeJson,
  type ToolCallSyntax,
} from "@toolcall/core/kit";
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

/**
 * A value as the Qwen3.6, Qwen3.8 and Qwen3-Coder-Next templates write it: a string as it is, anything else as
 * `tojson` (`false`, `null`, `{"k": true}`), where Qwen3-Coder's and Qwen3.5's write Python's `str()` (`False`, `None`).
 */
function qwenJsonValue(value: unknown): string {
  if (typeof value === "string") return value;
  const written = serializeJson(value, { style: "python" });
  return written.success ? written.value : "null";
}

/** Qwen3-Coder's family definition: the families that share its grammar and value writing spread it (MiMo, Step-3.5). */
export const QWEN3_CODER: FunctionCallFamily = {
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
 * Encodes calls as the Qwen3-Coder, Qwen3.5 and Nemotron 3 templates render them: per call
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

const QWEN36: FunctionCallFamily = {
  ...QWEN3_CODER,
  id: "qwen36",
  name: "Qwen3.6 / Qwen3.8 / Qwen3-Coder-Next (<function=…><parameter=…>, values as tojson)",
  writeValue: qwenJsonValue,
};
const encode36 = functionCallEncoder(QWEN36);

/**
 * Encodes calls as the Qwen3.6, Qwen3.8 and Qwen3-Coder-Next templates render them: as {@link encodeQwen3Coder}, with
 * every value that is not a string written as `tojson` writes it (`false`, `null`), not as Python's `str()`.
 *
 * @example
 * encodeQwen36([{ function: { name: "set_flag", arguments: '{"on": false}' } }]);
 * // "\n<tool_call>\n<function=set_flag>\n<parameter=on>\nfalse\n</parameter>\n</function>\n</tool_call>"
 */
export function encodeQwen36(calls: readonly EncodableToolCall[]): string {
  return encode36(calls);
}

/**
 * Qwen3.6, Qwen3.8 and Qwen3-Coder-Next: {@link qwen3Coder}'s syntax and parser (the same reader, reasoning, typing by
 * the tool's schema), with {@link encodeQwen36} as its encoder, so a round trip on these templates writes their bytes.
 *
 * @example
 * qwen36.encode([{ function: { name: "set_flag", arguments: '{"on": false}' } }]).includes("\nfalse\n"); // true
 */
export const qwen36: ToolCallSyntax = defineFunctionCallSyntax(QWEN36);
