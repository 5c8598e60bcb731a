import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsMapping, pythonJsonText } from "../engine/arguments.js";
import { defineSyntax } from "../engine/define-syntax.js";
import { type InvokeSyntax, readInvoke } from "../engine/invoke.js";
import { readSection } from "../engine/section.js";
import { BARE_THINK, plainCheck, textLoop } from "../engine/text-loop.js";

export const DSML_CALLS_OPEN = "<｜DSML｜function_calls>";
export const DSML_CALLS_CLOSE = "</｜DSML｜function_calls>";
/** DeepSeek V4's wrapper, read the same way. */
const V4_OPEN = "<｜DSML｜tool_calls>";
const V4_CLOSE = "</｜DSML｜tool_calls>";
export const DSML_INVOKE_OPEN = "<｜DSML｜invoke";
export const DSML_INVOKE_CLOSE = "</｜DSML｜invoke>";
export const DSML_PARAMETER_OPEN = "<｜DSML｜parameter";
export const DSML_PARAMETER_CLOSE = "</｜DSML｜parameter>";

const THINK = BARE_THINK;

const INVOKE: InvokeSyntax = {
  section: {
    sectionBegin: DSML_CALLS_OPEN,
    callBegin: DSML_INVOKE_OPEN,
    callEnd: DSML_INVOKE_CLOSE,
    sectionEnds: [DSML_CALLS_CLOSE, V4_CLOSE],
  },
  parameterOpen: DSML_PARAMETER_OPEN,
  parameterClose: DSML_PARAMETER_CLOSE,
  separator: "\n\n",
  // string="true": the text; otherwise typed by the schema, and string="false" without one reads JSON.
  add(args, key, text, attributes) {
    const declared = attributes.get("string");
    if (declared === "true") args.addValue(key, text);
    else args.addText(key, text, declared === "false" ? { type: "object" } : undefined);
  },
};

/**
 * Encodes calls as DeepSeek V3.2's encoder writes them (DeepSeek ships a Python encoder, not a Jinja template):
 * `\n\n<｜DSML｜function_calls>`, per call `\n<｜DSML｜invoke name="NAME">\n` and its parameters joined by newlines,
 * `<｜DSML｜parameter name="K" string="true|false">V</｜DSML｜parameter>` (strings as they are, other values as JSON),
 * then `\n</｜DSML｜invoke>`, and `\n</｜DSML｜function_calls>`.
 *
 * @example
 * encodeDeepSeekDsml([{ function: { name: "get_weather", arguments: '{"city": "Tokyo", "days": 3}' } }]);
 * // '\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="city" string="true">Tokyo</｜DSML｜parameter>\n<｜DSML｜parameter name="days" string="false">3</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>'
 */
export function encodeDeepSeekDsml(calls: readonly EncodableToolCall[]): string {
  const invokes = calls
    .map((call) => {
      const parameters = Object.entries(argumentsMapping(call))
        .map(([key, value]) => {
          const isString = typeof value === "string";
          return `${DSML_PARAMETER_OPEN} name="${key}" string="${isString}">${isString ? value : pythonJsonText(value)}${DSML_PARAMETER_CLOSE}`;
        })
        .join("\n");
      return `\n${DSML_INVOKE_OPEN} name="${call.function.name}">\n${parameters}\n${DSML_INVOKE_CLOSE}`;
    })
    .join("");
  return `\n\n${DSML_CALLS_OPEN}${invokes}\n${DSML_CALLS_CLOSE}`;
}

/**
 * DeepSeek V3.2 DSML (V4's `<｜DSML｜tool_calls>` wrapper too):
 * `<｜DSML｜function_calls>\n<｜DSML｜invoke name="NAME">\n<｜DSML｜parameter name="K" string="true">V</｜DSML｜parameter>\n…</｜DSML｜invoke>\n</｜DSML｜function_calls>`.
 *
 * Rules: `string="true"` keeps the value's text; any other value is typed by the tool's schema (core's
 * `convertParameterValue`), and `string="false"` with no schema reads JSON or a Python literal (numbers kept
 * exactly; text that is neither stays text, `parameter_type_mismatch`); a value ends at the
 * first `</｜DSML｜parameter>` followed by another parameter, `</｜DSML｜invoke>` or the end of the text (another
 * closing tag is part of it); a section cut short keeps its complete calls (`section_unclosed`).
 *
 * @example
 * deepseekV32.parse('<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="days" string="false">3</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>').toolCalls[0].function.arguments;
 * // '{"days": 3}'
 */
export const deepseekV32: ToolCallSyntax = defineSyntax({
  id: "deepseek-v32",
  name: "DeepSeek V3.2 (DSML)",
  startMarkers: [DSML_CALLS_OPEN, V4_OPEN],
  // "｜" (U+FF5C) is in both wrappers: the cheapest correct scan (see DeepSeek V3's).
  plain: plainCheck("｜", ["<think>"]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [DSML_CALLS_OPEN, V4_OPEN],
      reasoning: THINK,
      onCall: (marker, channel) =>
        readSection(reader, out, {
          syntax: INVOKE.section,
          opener: marker,
          channel,
          readCall: (prefix) => readInvoke(reader, out, context, INVOKE, { channel, prefix }),
        }),
    });
  },
  encode: encodeDeepSeekDsml,
});
