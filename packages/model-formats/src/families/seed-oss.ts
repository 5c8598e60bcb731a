import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { pyStr, toPython } from "@toolcall/jinja";
import { FUNCTION_CLOSE, FUNCTION_OPEN, PARAMETER_CLOSE, PARAMETER_OPEN } from "../engine/function-call.js";
import {
  defineFunctionCallSyntax,
  type FunctionCallFamily,
  functionCallEncoder,
} from "../engine/function-call-family.js";
import type { ReasoningSyntax } from "../engine/text-loop.js";

export const SEED_CALL_OPEN = "<seed:tool_call>";
export const SEED_CALL_CLOSE = "</seed:tool_call>";
export const SEED_FUNCTION_OPEN = FUNCTION_OPEN;
export const SEED_FUNCTION_CLOSE = FUNCTION_CLOSE;
export const SEED_PARAMETER_OPEN = PARAMETER_OPEN;
export const SEED_PARAMETER_CLOSE = PARAMETER_CLOSE;
/** Seed-OSS's reasoning markers, `<seed:think>` … `</seed:think>`. */
export const SEED_THINK: ReasoningSyntax = {
  open: "<seed:think>",
  close: "</seed:think>",
  lead: "",
  trail: "",
  after: "\n",
  before: "",
};

/** A value as Seed-OSS's template writes it: strings as they are, anything else as Python's `str()` (`True`, `{'a': 1}`). */
function seedValue(value: unknown): string {
  return typeof value === "string" ? value : pyStr(toPython(value));
}

const SEED_OSS: FunctionCallFamily = {
  id: "seed-oss",
  name: "Seed-OSS (<seed:tool_call><function=…><parameter=…>)",
  callOpen: SEED_CALL_OPEN,
  callClose: SEED_CALL_CLOSE,
  reasoning: SEED_THINK,
  // Seed-OSS calls after `</seed:think>`, and quotes the call syntax while it thinks ("The format is
  // <seed:tool_call>…", vLLM's test_seed_oss_tool_parser): a call there would run twice.
  callsInReasoning: false,
  valueOnLines: false,
  writeValue: seedValue,
};
const encode = functionCallEncoder(SEED_OSS);

/**
 * Encodes calls as Seed-OSS's template renders them: per call `\n<seed:tool_call>\n<function=NAME>\n`, per
 * argument `<parameter=K>V</parameter>\n` (strings as they are, other values as Python's `str()`, which the template's
 * `| string` writes), then `</function>\n</seed:tool_call>`.
 *
 * @example
 * encodeSeedOss([{ function: { name: "get_weather", arguments: '{"city": "Tokyo", "metric": true}' } }]);
 * // "\n<seed:tool_call>\n<function=get_weather>\n<parameter=city>Tokyo</parameter>\n<parameter=metric>True</parameter>\n</function>\n</seed:tool_call>"
 */
export function encodeSeedOss(calls: readonly EncodableToolCall[]): string {
  return encode(calls);
}

/**
 * ByteDance Seed-OSS: `<seed:tool_call>\n<function=NAME>\n<parameter=K>V</parameter>\n</function>\n</seed:tool_call>`,
 * reasoning in `<seed:think>…</seed:think>` (the thinking budget's `<seed:cot_budget_reflect>` notes inside it are
 * reasoning text).
 *
 * Rules: each value is the text between its tags, as written, typed by the tool's JSON Schema (core's
 * `convertParameterValue`; Python's `True`, `None` and dict repr, which the template's `| string` writes for
 * non-strings, read by type); without a schema it stays text. A value ends at the first `</parameter>` followed by
 * another parameter, `</function>` or the end of the text; a function with no parameters is `{}`; several functions in
 * one `<seed:tool_call>` are read; `<function=` at the very start with `<seed:tool_call>` missing is read
 * (`call_unopened`); a section cut short keeps its complete calls (`section_unclosed`).
 *
 * @example
 * seedOss.parse("<seed:think>The user wants the weather.</seed:think>\n<seed:tool_call>\n<function=get_weather>\n<parameter=city>Tokyo</parameter>\n</function>\n</seed:tool_call>");
 * // { reasoning: "The user wants the weather.", content: null, toolCalls: [{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' }, … }], issues: [] }
 */
export const seedOss: ToolCallSyntax = defineFunctionCallSyntax(SEED_OSS);
