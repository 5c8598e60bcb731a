import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { pyStr, toPython } from "@toolcall/jinja";
import { argumentsMapping } from "../engine/arguments.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { type InvokeSyntax, readInvoke } from "../engine/invoke.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Channel, Output } from "../engine/output.js";
import type { Reader, Step } from "../engine/reader.js";
import { type CallOutcome, callFailer, readSection, type SectionSyntax } from "../engine/section.js";
import { plainCheck, THINK, textLoop } from "../engine/text-loop.js";

export const STEP3_CALLS_BEGIN = "<｜tool_calls_begin｜>";
export const STEP3_CALLS_END = "<｜tool_calls_end｜>";
export const STEP3_CALL_BEGIN = "<｜tool_call_begin｜>";
/** How Step3's chat template writes a past turn's call marker: `>` before the closing `｜` (the model writes the token). */
export const STEP3_CALL_BEGIN_AS_TEMPLATED = "<｜tool_call_begin>｜>";
export const STEP3_CALL_END = "<｜tool_call_end｜>";
export const STEP3_SEP = "<｜tool_sep｜>";
export const STEP3_INVOKE_OPEN = "<steptml:invoke";
export const STEP3_INVOKE_CLOSE = "</steptml:invoke>";
export const STEP3_PARAMETER_OPEN = "<steptml:parameter";
export const STEP3_PARAMETER_CLOSE = "</steptml:parameter>";

const SECTION: SectionSyntax = {
  sectionBegin: STEP3_CALLS_BEGIN,
  callBegin: STEP3_CALL_BEGIN,
  callEnd: STEP3_CALL_END,
  sectionEnds: [STEP3_CALLS_END],
  callBeginRepairs: [STEP3_CALL_BEGIN_AS_TEMPLATED],
};
/** The invoke inside a call; a malformed one is skipped up to its `</steptml:invoke>`. */
const INVOKE: InvokeSyntax = {
  section: { ...SECTION, callEnd: STEP3_INVOKE_CLOSE },
  parameterOpen: STEP3_PARAMETER_OPEN,
  parameterClose: STEP3_PARAMETER_CLOSE,
  separator: "",
  // The text as written (whitespace around a string is data: vLLM's Step3 cases), typed by the tool's schema.
  add: (args, key, text) => args.addText(key, text),
};
const TYPE_SEP = new MarkerSet([`function${STEP3_SEP}`]);
const INVOKE_START = new MarkerSet([STEP3_INVOKE_OPEN]);
const CALL_END = new MarkerSet([STEP3_CALL_END]);
/** What ends a tool name written after `function<｜tool_sep｜>`. */
const HEADER_STOPS = "<｜ \t\r\n";

/**
 * One call after `<｜tool_call_begin｜>`: `function<｜tool_sep｜>` (vLLM's streaming reader reads the call without it
 * too; a tool name may follow it), then `<steptml:invoke name="NAME">` with its parameters, then `<｜tool_call_end｜>`.
 */
function* readCall(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  channel: Channel,
  prefix: string,
): Step<CallOutcome> {
  reader.record();
  const fail = callFailer(reader, out, { syntax: SECTION, channel, prefix });
  yield* reader.space();
  const typed = yield* reader.peek(TYPE_SEP);
  let name: string | undefined;
  if (typed !== null) {
    reader.consume(typed.length);
    // DeepSeek's header shape, `function<｜tool_sep｜>NAME` and a line break, before the invoke (vLLM's Step3 cases):
    // one reading when the invoke names the same tool.
    if ((yield* reader.peekChar()) !== "<") name = (yield* reader.upTo(HEADER_STOPS, 256)) || undefined;
    yield* reader.space();
  }
  const invoke = yield* reader.peek(INVOKE_START);
  if (invoke === null)
    return yield* fail(
      reader.exhausted ? "call_truncated" : "call_invalid",
      `expected ${STEP3_INVOKE_OPEN} in a call`,
    );
  reader.consume(invoke.length);
  const head = prefix + reader.takeRecord();
  const outcome = yield* readInvoke(reader, out, context, INVOKE, { channel, prefix: head, name });
  if (outcome === "ended") return outcome;
  const space = yield* reader.space();
  const end = yield* reader.peek(CALL_END);
  if (end !== null) {
    reader.consume(end.length);
    // A call that failed went back to content up to its invoke's end: its own end marker follows it there.
    if (outcome === "failed") out.text(channel, space + end);
  } else if (outcome === "ok" && reader.exhausted)
    out.issue({ code: "call_unclosed", severity: "info", message: `${STEP3_CALL_END} is missing` });
  else out.text(channel, space);
  return outcome;
}

/** A value as Step3's template writes it (`| string`): a string as it is, anything else as Python's `str()`. */
function step3Value(value: unknown): string {
  return typeof value === "string" ? value : pyStr(toPython(value));
}

/**
 * Encodes calls as StepFun Step3's chat template renders them: `<｜tool_calls_begin｜>\n`, per call the template's
 * `<｜tool_call_begin>｜>\nfunction<｜tool_sep｜><steptml:invoke name="NAME">`, per argument
 * `<steptml:parameter name="K">V</steptml:parameter>` (strings as they are, other values as Python's `str()`), then
 * `</steptml:invoke><｜tool_call_end｜>\n`, and `<｜tool_calls_end｜>`.
 *
 * @example
 * encodeStep3([{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } }]);
 * // '<｜tool_calls_begin｜>\n<｜tool_call_begin>｜>\nfunction<｜tool_sep｜><steptml:invoke name="get_weather"><steptml:parameter name="city">Tokyo</steptml:parameter></steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>'
 */
export function encodeStep3(calls: readonly EncodableToolCall[]): string {
  const body = calls
    .map((call) => {
      const parameters = Object.entries(argumentsMapping(call))
        .map(
          ([key, value]) =>
            `${STEP3_PARAMETER_OPEN} name="${key}">${step3Value(value)}${STEP3_PARAMETER_CLOSE}`,
        )
        .join("");
      return `${STEP3_CALL_BEGIN_AS_TEMPLATED}\nfunction${STEP3_SEP}${STEP3_INVOKE_OPEN} name="${call.function.name}">${parameters}${STEP3_INVOKE_CLOSE}${STEP3_CALL_END}\n`;
    })
    .join("");
  return `${STEP3_CALLS_BEGIN}\n${body}${STEP3_CALLS_END}`;
}

/**
 * StepFun Step3: `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="NAME">` with
 * `<steptml:parameter name="K">V</steptml:parameter>` per argument, `</steptml:invoke><｜tool_call_end｜>`, and
 * `<｜tool_calls_end｜>`; reasoning in `<think>…</think>`, which the generation prompt opens (pass
 * `startInReasoning: true`).
 *
 * Rules: the invoke reader MiniMax M2 and DSML use (engine `readInvoke`): each value is the text between its tags, as
 * written, typed by the tool's JSON Schema (a string keeps the white space around it); without a schema it stays text.
 * `function<｜tool_sep｜>` may be missing, or name the tool before the invoke (`function<｜tool_sep｜>NAME` and a line
 * break, DeepSeek's header: read when the invoke names the same tool, `call_invalid` otherwise); the template's own spelling of a past turn's call marker,
 * `<｜tool_call_begin>｜>`, is read (`marker_repaired`, info); a call outside a section is read (`call_unopened`); a
 * malformed call stays in content as written, its end marker too, and the section goes on; a section cut short keeps
 * its complete calls (`section_unclosed`).
 *
 * @example
 * step3.parse('<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather"><steptml:parameter name="city">Tokyo</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>').toolCalls[0].function;
 * // { name: "get_weather", arguments: '{"city": "Tokyo"}' }
 */
export const step3: ToolCallSyntax = defineSyntax({
  id: "step3",
  name: "StepFun Step3 (<｜tool_calls_begin｜><steptml:invoke name=…>)",
  startMarkers: [STEP3_CALLS_BEGIN, STEP3_CALL_BEGIN],
  // "｜" (U+FF5C) is in every section and call marker: one native scan for one rare character, as DeepSeek's.
  plain: plainCheck("｜", [THINK.open]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [STEP3_CALLS_BEGIN, STEP3_CALL_BEGIN],
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
  encode: encodeStep3,
});
