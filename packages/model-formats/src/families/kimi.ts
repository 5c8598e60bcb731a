import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsJson } from "../engine/arguments.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { readJsonArguments } from "../engine/json-arguments.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Channel, Output } from "../engine/output.js";
import type { Reader, Step } from "../engine/reader.js";
import {
  type CallOutcome,
  callFailer,
  readCallEnd,
  readSection,
  type SectionSyntax,
} from "../engine/section.js";
import { BARE_THINK, plainCheck, textLoop } from "../engine/text-loop.js";

export const KIMI_SECTION_BEGIN = "<|tool_calls_section_begin|>";
export const KIMI_SECTION_END = "<|tool_calls_section_end|>";
export const KIMI_CALL_BEGIN = "<|tool_call_begin|>";
export const KIMI_ARGUMENT_BEGIN = "<|tool_call_argument_begin|>";
export const KIMI_CALL_END = "<|tool_call_end|>";
/** Singular spellings seen in the wild (vLLM #32146). */
const SECTION_BEGIN_VARIANT = "<|tool_call_section_begin|>";
const SECTION_END_VARIANT = "<|tool_call_section_end|>";

const SECTION_ENDS = [KIMI_SECTION_END, SECTION_END_VARIANT];
const ARGUMENT_BEGIN = new MarkerSet([KIMI_ARGUMENT_BEGIN]);
const CALL_END = new MarkerSet([KIMI_CALL_END]);
const THINK = BARE_THINK;

/** `functions.get_weather:0` → `get_weather`; `get_weather:0` → `get_weather`; the id is kept as written. */
export function kimiCallName(id: string): string {
  const withoutIndex = id.replace(/:\d+$/, "");
  return withoutIndex.startsWith("functions.") ? withoutIndex.slice("functions.".length) : withoutIndex;
}

const SECTION: SectionSyntax = {
  sectionBegin: KIMI_SECTION_BEGIN,
  sectionBeginVariants: [SECTION_BEGIN_VARIANT],
  callBegin: KIMI_CALL_BEGIN,
  callEnd: KIMI_CALL_END,
  sectionEnds: SECTION_ENDS,
};

/** Reads one call after `<|tool_call_begin|>`. */
function* readCall(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  channel: Channel,
  prefix: string,
): Step<CallOutcome> {
  reader.record();
  const fail = callFailer(reader, out, { syntax: SECTION, channel, prefix });
  const idParts: string[] = [];
  if ((yield* reader.until(ARGUMENT_BEGIN, (text) => idParts.push(text))) === null)
    return yield* fail("call_truncated", "the text ends inside a tool call");
  const written = idParts.join("").trim();
  let name = kimiCallName(written);
  const offered = context.tools.names();
  if (/^\d+$/.test(written) && offered.length === 1) {
    // A bare counter (`0`) names no tool; with one tool offered it can only be that one (vLLM reads it so).
    name = offered[0] as string;
    out.issue({
      code: "name_inferred",
      severity: "info",
      message: `the call names no tool: read as ${name}, the one offered`,
      tool: name,
    });
  } else if (/^\d+$/.test(written)) return yield* fail("call_invalid", "a bare counter names no tool");
  // The id is `functions.NAME:IDX` (or `NAME:IDX`): one without its index (`functions.f.0`) is no call, as in vLLM.
  else if (!/:\d+$/.test(written)) return yield* fail("call_invalid", "the call id is not NAME:IDX");
  if (name === "" || name.includes("<|")) return yield* fail("call_invalid", "a tool call without a name");
  // The id (`functions.NAME:IDX`) is the call's id; the template writes it back as it is.
  const id = /:\d+$/.test(written) ? written : context.createId(out.index, name);
  out.start(name, id, channel);
  context.checkName(name, out);
  const args = yield* readJsonArguments(reader, out, { end: CALL_END, tool: name });
  if (args.status === "end") return yield* fail("call_truncated", "the text ends inside a tool call");
  if (args.status === "invalid") return yield* fail("call_invalid", args.message);
  if (!args.closed) {
    const end = yield* readCallEnd(reader, SECTION);
    if (end === "invalid")
      return yield* fail("call_invalid", `expected ${KIMI_CALL_END} after the arguments`);
    if (end === "unclosed")
      out.issue({
        code: "call_unclosed",
        severity: "info",
        message: `${KIMI_CALL_END} is missing`,
        tool: name,
      });
  }
  reader.takeRecord();
  out.end(args.text);
  return "ok";
}

/**
 * Encodes calls as the Kimi K2 / K2.5 templates render them: `<|tool_calls_section_begin|>` + per call
 * `<|tool_call_begin|>ID<|tool_call_argument_begin|>ARGS<|tool_call_end|>` + `<|tool_calls_section_end|>`; the id is
 * the call's (`functions.NAME:IDX` when it has none), the arguments as `tojson` writes a mapping.
 *
 * @example
 * encodeKimi([{ id: "functions.get_weather:0", function: { name: "get_weather", arguments: '{"city":"Tokyo"}' } }]);
 * // '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Tokyo"}<|tool_call_end|><|tool_calls_section_end|>'
 */
export function encodeKimi(calls: readonly EncodableToolCall[]): string {
  const body = calls
    .map(
      (call, index) =>
        `${KIMI_CALL_BEGIN}${call.id ?? `functions.${call.function.name}:${index}`}${KIMI_ARGUMENT_BEGIN}${argumentsJson(call)}${KIMI_CALL_END}`,
    )
    .join("");
  return `${KIMI_SECTION_BEGIN}${body}${KIMI_SECTION_END}`;
}

/**
 * Kimi K2 / K2 Thinking / K2.5: calls in a section,
 * `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{…}<|tool_call_end|>…<|tool_calls_section_end|>`,
 * reasoning in `<think>…</think>` (K2.5's generation prompt opens it: `startInReasoning`).
 *
 * Rules: the id `functions.NAME:IDX` (or `NAME:IDX`) is kept as the call's id, the name is what stands between
 * `functions.` and `:IDX` (dots and dashes included), and a bare counter (`0`) names the one tool offered, if only one
 * was (`name_inferred`); an id without its index (`functions.NAME`) is no call (`call_invalid`: it stays in content,
 * and the section's other calls are read); arguments are JSON (bytes kept; nothing is `{}`); a call outside a
 * section is read (`call_unopened`), as are the singular marker spellings (`marker_variant`); a section cut short
 * (a length stop before `<|tool_calls_section_end|>`) keeps its complete calls (`section_unclosed`); a
 * `<|tool_call_begin|>` inside a JSON string is data.
 *
 * @example
 * kimiK2.parse('<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Beijing"}<|tool_call_end|><|tool_calls_section_end|>').toolCalls;
 * // [{ id: "functions.get_weather:0", type: "function", function: { name: "get_weather", arguments: '{"city": "Beijing"}' } }]
 */
export const kimiK2: ToolCallSyntax = defineSyntax({
  id: "kimi-k2",
  name: "Kimi K2 / K2.5 (tool call sections)",
  startMarkers: [KIMI_SECTION_BEGIN, KIMI_CALL_BEGIN],
  // "_begin|>" ends every call and section marker, both spellings: the cheapest correct scan measured (bench
  // section 6; the shared prefix "<|tool_call", shorter than the section marker, scanned 16 KB answers 4× slower).
  plain: plainCheck("_begin|>", ["<think>"]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [KIMI_SECTION_BEGIN, SECTION_BEGIN_VARIANT, KIMI_CALL_BEGIN],
      reasoning: THINK,
      onCall: (marker, channel) =>
        readSection(reader, out, {
          syntax: SECTION,
          opener: marker,
          channel,
          readCall: (prefix) => readCall(reader, out, context, channel, prefix),
        }),
    });
  },
  encode: encodeKimi,
});
