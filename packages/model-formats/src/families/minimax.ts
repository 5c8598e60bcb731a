import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsMapping, pythonJsonText } from "../engine/arguments.js";
import { defineSyntax } from "../engine/define-syntax.js";
import { type InvokeSyntax, readInvoke } from "../engine/invoke.js";
import { MarkerSet } from "../engine/marker-set.js";
import { readSection } from "../engine/section.js";
import { plainCheck, THINK, textLoop } from "../engine/text-loop.js";

export const MINIMAX_CALLS_OPEN = "<minimax:tool_call>";
export const MINIMAX_CALLS_CLOSE = "</minimax:tool_call>";
export const MINIMAX_INVOKE_OPEN = "<invoke";
export const MINIMAX_INVOKE_CLOSE = "</invoke>";
export const MINIMAX_PARAMETER_OPEN = "<parameter";
export const MINIMAX_PARAMETER_CLOSE = "</parameter>";

/** An invoke at the very start whose section marker is missing. */
const INVOKE_START = new MarkerSet([`${MINIMAX_INVOKE_OPEN} `]);

const INVOKE: InvokeSyntax = {
  section: {
    sectionBegin: MINIMAX_CALLS_OPEN,
    callBegin: MINIMAX_INVOKE_OPEN,
    callEnd: MINIMAX_INVOKE_CLOSE,
    sectionEnds: [MINIMAX_CALLS_CLOSE],
    callBeginRepairs: ["invoke "],
  },
  parameterOpen: MINIMAX_PARAMETER_OPEN,
  parameterClose: MINIMAX_PARAMETER_CLOSE,
  separator: "\n",
  // The text as written, typed by the tool's schema (strings keep it; Python's dict repr reads for an object).
  add: (args, key, text) => args.addText(key, text),
};

/**
 * Encodes calls as MiniMax M2's template renders them: `\n<minimax:tool_call>\n`, per call `<invoke name="NAME">\n`
 * and per argument `<parameter name="K">V</parameter>\n` (strings as they are, other values as `tojson`), then
 * `</invoke>\n`, and `</minimax:tool_call>`.
 *
 * @example
 * encodeMinimaxM2([{ function: { name: "get_weather", arguments: '{"city": "Tokyo", "days": 3}' } }]);
 * // '\n<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Tokyo</parameter>\n<parameter name="days">3</parameter>\n</invoke>\n</minimax:tool_call>'
 */
export function encodeMinimaxM2(calls: readonly EncodableToolCall[]): string {
  const invokes = calls
    .map((call) => {
      const parameters = Object.entries(argumentsMapping(call))
        .map(
          ([key, value]) =>
            `${MINIMAX_PARAMETER_OPEN} name="${key}">${typeof value === "string" ? value : pythonJsonText(value)}${MINIMAX_PARAMETER_CLOSE}\n`,
        )
        .join("");
      return `${MINIMAX_INVOKE_OPEN} name="${call.function.name}">\n${parameters}${MINIMAX_INVOKE_CLOSE}\n`;
    })
    .join("");
  return `\n${MINIMAX_CALLS_OPEN}\n${invokes}${MINIMAX_CALLS_CLOSE}`;
}

/**
 * MiniMax M2 (M2.1, M2.5; the same syntax in every release): `<minimax:tool_call>`, then per call
 * `<invoke name="NAME">` with `<parameter name="K">V</parameter>` lines and `</invoke>`, then
 * `</minimax:tool_call>`; reasoning in `<think>\n…\n</think>\n\n`, which the generation prompt opens (pass
 * `startInReasoning: true`).
 *
 * Rules: each value is the text between its tags, as written, typed by the tool's JSON Schema (core's
 * `convertParameterValue`: a string parameter keeps its text, an object parameter written as Python's dict repr is
 * read, a value that does not fit stays text with `parameter_type_mismatch`); without a schema it stays text. A
 * value ends at the first `</parameter>` followed by another parameter, `</invoke>` or the end of the text (another
 * `</parameter>` is part of it); `<invoke name='f'>` (single quotes) is read; an invoke with no parameters is `{}`;
 * `<invoke` at the very start with the section's marker missing (a server that strips special tokens) is read
 * (`call_unopened`); `invoke name="f">` with its `<` lost, inside the section where only a call can stand, is read
 * when the call reads in full (`marker_repaired`, info); a section cut short keeps its complete calls (`section_unclosed`).
 *
 * @example
 * minimaxM2.parse('<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="city">Tokyo</parameter>\n</invoke>\n</minimax:tool_call>').toolCalls[0].function;
 * // { name: "get_weather", arguments: '{"city": "Tokyo"}' }
 */
export const minimaxM2: ToolCallSyntax = defineSyntax({
  id: "minimax-m2",
  name: "MiniMax M2 (<minimax:tool_call><invoke name=…><parameter name=…>)",
  startMarkers: [MINIMAX_CALLS_OPEN],
  plain: plainCheck(MINIMAX_CALLS_OPEN, [THINK.open, MINIMAX_INVOKE_OPEN]),
  *run(reader, out, context) {
    const section = (opener: string, channel: "content" | "reasoning") =>
      readSection(reader, out, {
        syntax: INVOKE.section,
        opener,
        channel,
        readCall: (prefix) => readInvoke(reader, out, context, INVOKE, { channel, prefix }),
      });
    yield* textLoop(reader, out, context, {
      callMarkers: [MINIMAX_CALLS_OPEN],
      reasoning: THINK,
      *atStart() {
        out.text("content", yield* reader.space());
        reader.journalCommit();
        const marker = yield* reader.peek(INVOKE_START);
        if (marker === null) return;
        reader.consume(MINIMAX_INVOKE_OPEN.length);
        reader.journalStart(MINIMAX_INVOKE_OPEN);
        yield* section(MINIMAX_INVOKE_OPEN, "content");
      },
      onCall: (marker, channel) => section(marker, channel),
    });
  },
  encode: encodeMinimaxM2,
});
