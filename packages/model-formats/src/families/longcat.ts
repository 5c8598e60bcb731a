import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { nameAndArgumentsJson } from "../engine/arguments.js";
import type { ReasoningSyntax } from "../engine/text-loop.js";
import { defineTaggedJsonSyntax } from "./hermes.js";

export const LONGCAT_CALL_OPEN = "<longcat_tool_call>";
export const LONGCAT_CALL_CLOSE = "</longcat_tool_call>";
/**
 * LongCat's reasoning, `\n<longcat_think>\n…\n</longcat_think>\n` (its template writes a newline before the block too);
 * the generation prompt opens it when thinking is on (pass `startInReasoning: true`).
 */
export const LONGCAT_THINK: ReasoningSyntax = {
  open: "<longcat_think>",
  close: "</longcat_think>",
  lead: "\n",
  trail: "\n",
  after: "\n",
  before: "\n",
};

/**
 * Encodes calls as Meituan LongCat-Flash-Chat's template renders them: each call
 * `<longcat_tool_call>\n{"name": "NAME", "arguments": ARGS}\n</longcat_tool_call>`, the arguments as `tojson` writes a
 * mapping, calls back to back right after the content.
 *
 * @example
 * encodeLongcat([{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } }]);
 * // '<longcat_tool_call>\n{"name": "get_weather", "arguments": {"city": "Tokyo"}}\n</longcat_tool_call>'
 */
export function encodeLongcat(calls: readonly EncodableToolCall[]): string {
  return calls
    .map((call) => `${LONGCAT_CALL_OPEN}\n${nameAndArgumentsJson(call)}\n${LONGCAT_CALL_CLOSE}`)
    .join("");
}

/**
 * Meituan LongCat-Flash (Chat, Thinking): `<longcat_tool_call>\n{"name": …, "arguments": {…}}\n</longcat_tool_call>`,
 * reasoning in `<longcat_think>\n…\n</longcat_think>`.
 *
 * Rules: Hermes' reader with LongCat's tags (vLLM's LongCat parser is Hermes' with these tags): the arguments object
 * keeps the model's bytes; `"arguments"` written as a string of JSON is unwrapped once; a call without a name, or whose
 * JSON is invalid, stays in content (`call_invalid`); text that ends inside a call stays in content
 * (`call_truncated`); a missing `</longcat_tool_call>` ends the call at its JSON (`call_unclosed`); a JSON call
 * followed by `</longcat_tool_call>` at the very start is read (`call_unopened`).
 *
 * @example
 * longcat.parse('Let me check.<longcat_tool_call>\n{"name": "get_weather", "arguments": {"city": "Tokyo"}}\n</longcat_tool_call>').toolCalls[0].function;
 * // { name: "get_weather", arguments: '{"city": "Tokyo"}' }
 */
export const longcat: ToolCallSyntax = defineTaggedJsonSyntax({
  id: "longcat",
  name: "Meituan LongCat (<longcat_tool_call> JSON)",
  open: LONGCAT_CALL_OPEN,
  close: LONGCAT_CALL_CLOSE,
  separator: "",
  reasoning: LONGCAT_THINK,
  encode: encodeLongcat,
});
