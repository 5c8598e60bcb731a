import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { pyStr, toPython } from "@toolcall/jinja";
import { argumentsMapping } from "../engine/arguments.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Channel, Output } from "../engine/output.js";
import { readValue } from "../engine/read-value.js";
import type { Reader, Step } from "../engine/reader.js";
import { type CallOutcome, callFailer, readSection, type SectionSyntax } from "../engine/section.js";
import { TextArguments } from "../engine/text-arguments.js";
import { plainCheck, type ReasoningSyntax, textLoop } from "../engine/text-loop.js";

export const SEED_CALL_OPEN = "<seed:tool_call>";
export const SEED_CALL_CLOSE = "</seed:tool_call>";
export const SEED_FUNCTION_OPEN = "<function=";
export const SEED_FUNCTION_CLOSE = "</function>";
export const SEED_PARAMETER_OPEN = "<parameter=";
export const SEED_PARAMETER_CLOSE = "</parameter>";
export const SEED_THINK: ReasoningSyntax = {
  open: "<seed:think>",
  close: "</seed:think>",
  lead: "",
  trail: "",
  after: "\n",
  before: "",
};

const SECTION: SectionSyntax = {
  sectionBegin: SEED_CALL_OPEN,
  callBegin: SEED_FUNCTION_OPEN,
  callEnd: SEED_FUNCTION_CLOSE,
  sectionEnds: [SEED_CALL_CLOSE],
};
const IN_FUNCTION = new MarkerSet([SEED_PARAMETER_OPEN, SEED_FUNCTION_CLOSE]);
const PARAMETER_CLOSE = new MarkerSet([SEED_PARAMETER_CLOSE]);
const FUNCTION_START = new MarkerSet([SEED_FUNCTION_OPEN]);
/** Content ends with `\n`, and a call starts with `\n` (the template's two newlines); between calls, one. */
const SEPARATOR = ["\n\n", "\n"] as const;

/** Reads `NAME>` after `<function=` or `K>` after `<parameter=`; `null` when no `>` closes it. */
function* tagName(reader: Reader): Step<string | null> {
  const text = yield* reader.upTo(">\n<", 1024);
  if ((yield* reader.peekChar()) !== ">") return null;
  reader.consume(1);
  return text.trim();
}

/** One `<function=NAME>` … `</function>` after its marker. */
function* readFunction(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  channel: Channel,
  prefix: string,
): Step<CallOutcome> {
  reader.record();
  const fail = callFailer(reader, out, { syntax: SECTION, channel, prefix });
  const atEnd = () => reader.ended && reader.pos >= reader.text.length;
  const name = yield* tagName(reader);
  if (name === null)
    return yield* fail(atEnd() ? "call_truncated" : "call_invalid", "a function tag that does not close");
  if (name === "") return yield* fail("call_invalid", "a function without a name");
  out.start(name, context.createId(out.index, name), channel, SEPARATOR);
  context.checkName(name, out);
  const args = new TextArguments(name, context, out);
  for (;;) {
    yield* reader.space();
    const next = yield* reader.peek(IN_FUNCTION);
    if (next === null)
      return yield* fail(
        atEnd() ? "call_truncated" : "call_invalid",
        "text inside a function that is not a parameter",
      );
    reader.consume(next.length);
    if (next === SEED_FUNCTION_CLOSE) break;
    const key = yield* tagName(reader);
    if (key === null)
      return yield* fail(atEnd() ? "call_truncated" : "call_invalid", "a parameter tag that does not close");
    const value = yield* readValue(reader, PARAMETER_CLOSE, IN_FUNCTION);
    if (value.status === "end") return yield* fail("call_truncated", "the text ends inside a tool call");
    args.addText(key, value.text);
  }
  reader.takeRecord();
  out.end(args.finish());
  return "ok";
}

/** A value as Seed-OSS's template writes it: strings as they are, anything else as Python's `str()` (`True`, `{'a': 1}`). */
function seedValue(value: unknown): string {
  return typeof value === "string" ? value : pyStr(toPython(value));
}

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
  return calls
    .map((call) => {
      const parameters = Object.entries(argumentsMapping(call))
        .map(([k, v]) => `${SEED_PARAMETER_OPEN}${k}>${seedValue(v)}${SEED_PARAMETER_CLOSE}\n`)
        .join("");
      return `\n${SEED_CALL_OPEN}\n${SEED_FUNCTION_OPEN}${call.function.name}>\n${parameters}${SEED_FUNCTION_CLOSE}\n${SEED_CALL_CLOSE}`;
    })
    .join("");
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
export const seedOss: ToolCallSyntax = defineSyntax({
  id: "seed-oss",
  name: "Seed-OSS (<seed:tool_call><function=…><parameter=…>)",
  startMarkers: [SEED_CALL_OPEN],
  plain: plainCheck(SEED_CALL_OPEN, [SEED_THINK.open, SEED_FUNCTION_OPEN]),
  *run(reader, out, context) {
    const section = (opener: string, channel: Channel) =>
      readSection(reader, out, {
        syntax: SECTION,
        opener,
        channel,
        readCall: (prefix) => readFunction(reader, out, context, channel, prefix),
      });
    yield* textLoop(reader, out, context, {
      callMarkers: [SEED_CALL_OPEN],
      reasoning: SEED_THINK,
      // Seed-OSS calls after `</seed:think>`, and quotes the call syntax while it thinks ("The format is
      // <seed:tool_call>…", vLLM's test_seed_oss_tool_parser): a call there would run twice.
      callsInReasoning: false,
      *atStart() {
        out.text("content", yield* reader.space());
        reader.journalCommit();
        if ((yield* reader.peek(FUNCTION_START)) === null) return;
        reader.consume(SEED_FUNCTION_OPEN.length);
        reader.journalStart(SEED_FUNCTION_OPEN);
        yield* section(SEED_FUNCTION_OPEN, "content");
      },
      onCall: (marker, channel) => section(marker, channel),
    });
  },
  encode: encodeSeedOss,
});
