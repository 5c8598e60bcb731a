import { parameterType } from "@toolcall/core/kit";
import type { FamilyContext } from "./define-syntax.js";
import { MarkerSet } from "./marker-set.js";
import type { Channel, Output, Separator } from "./output.js";
import { readValue, valueUnclosed } from "./read-value.js";
import type { Reader, Step } from "./reader.js";
import { type CallOutcome, callFailer, type SectionSyntax } from "./section.js";
import { TextArguments } from "./text-arguments.js";
import { isToolName } from "./tool-name.js";

export const FUNCTION_OPEN = "<function=";
export const FUNCTION_CLOSE = "</function>";
export const PARAMETER_OPEN = "<parameter=";
export const PARAMETER_CLOSE = "</parameter>";

const IN_FUNCTION = new MarkerSet([PARAMETER_OPEN, FUNCTION_CLOSE]);
const VALUE_TAGS = {
  closer: new MarkerSet([PARAMETER_CLOSE]),
  followers: IN_FUNCTION,
  stops: new MarkerSet([PARAMETER_CLOSE, PARAMETER_OPEN, FUNCTION_CLOSE, FUNCTION_OPEN]),
};

/** How a family writes `<function=NAME><parameter=K>V</parameter></function>` (Seed-OSS, Qwen3-Coder, Nemotron 3). */
export interface FunctionCallSyntax {
  section: SectionSyntax;
  /** What the template writes before a call. */
  separator: Separator;
  /** The template writes each value on its own lines (`<parameter=K>\nV\n</parameter>`): one newline each side is syntax. */
  valueOnLines: boolean;
}

/** Reads `NAME>` after `<function=` or `K>` after `<parameter=`; `null` when no `>` closes it. */
function* tagName(reader: Reader): Step<string | null> {
  const text = yield* reader.upTo(">\n<", 1024);
  if ((yield* reader.peekChar()) !== ">") return null;
  reader.consume(1);
  return text.trim();
}

function valueText(text: string, onLines: boolean): string {
  if (!onLines) return text;
  let value = text;
  if (value.startsWith("\n")) value = value.slice(1);
  if (value.endsWith("\n")) value = value.slice(0, -1);
  return value;
}

/**
 * A text value between line breaks (`<parameter=K>\nV\n</parameter>`) where the template writes a value right after
 * its tag (Seed-OSS, MiMo): the line breaks may be the value's, as the template writes `"\nV\n"`, or Qwen3-Coder's
 * layout, as llama.cpp and vLLM read them (one trimmed each side). No one reading, so the value keeps them, and says
 * so (`value_newlines_kept`); a typed value (a number, an object) is read without its whitespace anyway.
 */
function newlinesKept(
  out: Output,
  args: { context: FamilyContext; tool: string; parameter: string; text: string },
): void {
  const { text } = args;
  if (text.length < 2 || !text.startsWith("\n") || !text.endsWith("\n")) return;
  const { type } = parameterType(args.context.tools.parameter(args.tool, args.parameter));
  if (type !== undefined && type !== "string") return;
  out.issue({
    code: "value_newlines_kept",
    severity: "info",
    message: "line breaks around a text value are kept: the template writes none, so they may be the value's",
    tool: args.tool,
    parameter: args.parameter,
  });
}

/**
 * One `<function=NAME>` … `</function>` after its marker: each `<parameter=K>` value is text up to its
 * `</parameter>` (core's typing by the tool's schema), streamed pair by pair. A name that cannot be a tool's, a tag
 * that does not close or text between the parameters leaves the call in content as written.
 */
export function* readFunctionCall(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  options: { syntax: FunctionCallSyntax; channel: Channel; prefix: string },
): Step<CallOutcome> {
  const { syntax, channel } = options;
  reader.record();
  const fail = callFailer(reader, out, { syntax: syntax.section, channel, prefix: options.prefix });
  const name = yield* tagName(reader);
  if (name === null)
    return yield* fail(
      reader.exhausted ? "call_truncated" : "call_invalid",
      "a function tag that does not close",
    );
  if (!isToolName(name)) return yield* fail("call_invalid", "a function without a tool's name");
  out.start(name, context.createId(out.index, name), channel, syntax.separator);
  context.checkName(name, out);
  const args = new TextArguments(name, context, out);
  const given = new Set<string>();
  let key = "";
  // A value may hold this syntax's tags as text (a coding agent writing a file about them): a parameter tag is the
  // call's own only where it names a parameter that can come next (in the tool's schema when the tool is offered,
  // not given yet); vLLM's Qwen3 parsers read such values whole.
  const nesting = {
    parameterOpen: PARAMETER_OPEN,
    callOpen: FUNCTION_OPEN,
    callClose: FUNCTION_CLOSE,
    callCloseFollowers: [...syntax.section.sectionEnds, syntax.section.sectionBegin, FUNCTION_OPEN],
    isNext: (next: string) =>
      next !== key &&
      !given.has(next) &&
      (!context.tools.has(name) || context.tools.parameter(name, next) !== undefined),
  };
  const tags = { ...VALUE_TAGS, nesting };
  for (;;) {
    yield* reader.space();
    const next = yield* reader.peek(IN_FUNCTION);
    if (next === null && reader.exhausted) {
      // Whole parameters, then the end of the text: a call without its closing tags, as every family reads it.
      out.issue({
        code: "call_unclosed",
        severity: "info",
        message: `${FUNCTION_CLOSE} is missing`,
        tool: name,
      });
      reader.takeRecord();
      out.end(args.finish());
      return "ended";
    }
    if (next === null)
      return yield* fail(
        reader.exhausted ? "call_truncated" : "call_invalid",
        "text inside a function that is not a parameter",
      );
    reader.consume(next.length);
    if (next === FUNCTION_CLOSE) break;
    const tag = yield* tagName(reader);
    if (tag === null)
      return yield* fail(
        reader.exhausted ? "call_truncated" : "call_invalid",
        "a parameter tag that does not close",
      );
    key = tag;
    const value = yield* readValue(reader, tags);
    if (value.status === "end") return yield* fail("call_truncated", "the text ends inside a tool call");
    if (value.unclosed) valueUnclosed(out, { tool: name, parameter: key, closer: PARAMETER_CLOSE });
    if (!syntax.valueOnLines) newlinesKept(out, { context, tool: name, parameter: key, text: value.text });
    args.addText(key, valueText(value.text, syntax.valueOnLines));
    given.add(key);
  }
  reader.takeRecord();
  out.end(args.finish());
  return "ok";
}
