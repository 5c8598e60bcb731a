import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core";
import { argumentsMapping, pythonJsonText } from "../engine/arguments.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Channel, Output } from "../engine/output.js";
import { readValue } from "../engine/read-value.js";
import type { Reader, Step } from "../engine/reader.js";
import { type CallOutcome, callFailer, readSection, type SectionSyntax } from "../engine/section.js";
import { TextArguments } from "../engine/text-arguments.js";
import { plainCheck, type ReasoningSyntax, textLoop } from "../engine/text-loop.js";

export const DSML_CALLS_OPEN = "<｜DSML｜function_calls>";
export const DSML_CALLS_CLOSE = "</｜DSML｜function_calls>";
/** DeepSeek V4's wrapper, read the same way. */
const V4_OPEN = "<｜DSML｜tool_calls>";
const V4_CLOSE = "</｜DSML｜tool_calls>";
export const DSML_INVOKE_OPEN = "<｜DSML｜invoke";
export const DSML_INVOKE_CLOSE = "</｜DSML｜invoke>";
export const DSML_PARAMETER_OPEN = "<｜DSML｜parameter";
export const DSML_PARAMETER_CLOSE = "</｜DSML｜parameter>";

const IN_INVOKE = new MarkerSet([DSML_PARAMETER_OPEN, DSML_INVOKE_CLOSE]);
const PARAMETER_CLOSE = new MarkerSet([DSML_PARAMETER_CLOSE]);
const THINK: ReasoningSyntax = {
  open: "<think>",
  close: "</think>",
  lead: "",
  trail: "",
  after: "",
  before: "",
};

/** The attributes of a tag's text (`name="x" string="true"`). */
function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const match of text.matchAll(/([A-Za-z_]+)\s*=\s*"([^"]*)"/g))
    out.set(match[1] as string, match[2] as string);
  return out;
}

/** Reads a tag's rest up to `>` (after `<｜DSML｜invoke` or `<｜DSML｜parameter`); `null` when the text ends first. */
function* tagRest(reader: Reader): Step<string | null> {
  const text = yield* reader.upTo(">", 4096);
  if ((yield* reader.peekChar()) !== ">") return null;
  reader.consume(1);
  return text;
}

const SECTION: SectionSyntax = {
  sectionBegin: DSML_CALLS_OPEN,
  callBegin: DSML_INVOKE_OPEN,
  callEnd: DSML_INVOKE_CLOSE,
  sectionEnds: [DSML_CALLS_CLOSE, V4_CLOSE],
};

function* readInvoke(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  channel: Channel,
  prefix: string,
): Step<CallOutcome> {
  reader.record();
  const fail = callFailer(reader, out, { syntax: SECTION, channel, prefix });
  const atEnd = () => reader.ended && reader.pos >= reader.text.length;
  const truncated = "the text ends inside a tool call";
  const head = yield* tagRest(reader);
  if (head === null)
    return yield* fail(atEnd() ? "call_truncated" : "call_invalid", "an invoke tag that does not close");
  const name = attributes(head).get("name")?.trim() ?? "";
  if (name === "") return yield* fail("call_invalid", "an invoke without a name");
  out.start(name, context.createId(out.index, name), channel, "\n\n");
  context.checkName(name, out);
  const args = new TextArguments(name, context, out);
  for (;;) {
    yield* reader.space();
    const next = yield* reader.peek(IN_INVOKE);
    if (next === null)
      return yield* fail(
        atEnd() ? "call_truncated" : "call_invalid",
        "text inside an invoke that is not a parameter",
      );
    reader.consume(next.length);
    if (next === DSML_INVOKE_CLOSE) break;
    const tag = yield* tagRest(reader);
    if (tag === null)
      return yield* fail(atEnd() ? "call_truncated" : "call_invalid", "a parameter tag that does not close");
    const attrs = attributes(tag);
    const key = attrs.get("name") ?? "";
    const value = yield* readValue(reader, PARAMETER_CLOSE, IN_INVOKE);
    if (value.status === "end") return yield* fail("call_truncated", truncated);
    // string="true": the text; otherwise typed by the schema, and string="false" without one reads JSON.
    const declared = attrs.get("string");
    if (declared === "true") args.addValue(key, value.text);
    else args.addText(key, value.text, declared === "false" ? { type: "object" } : undefined);
  }
  reader.takeRecord();
  out.end(args.finish());
  return "ok";
}

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
  isPlain: plainCheck(["<｜DSML｜"], ["<think>"]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [DSML_CALLS_OPEN, V4_OPEN],
      reasoning: THINK,
      onCall: (marker, channel) =>
        readSection(reader, out, {
          syntax: SECTION,
          opener: marker,
          channel,
          readCall: (prefix) => readInvoke(reader, out, context, channel, prefix),
        }),
    });
  },
  encode: encodeDeepSeekDsml,
});
