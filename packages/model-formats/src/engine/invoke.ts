import type { FamilyContext } from "./define-syntax.js";
import { readJsonArguments } from "./json-arguments.js";
import { MarkerSet } from "./marker-set.js";
import type { Channel, Output, Separator } from "./output.js";
import { readValue, valueUnclosed } from "./read-value.js";
import type { Reader, Step } from "./reader.js";
import { type CallOutcome, callFailer, type SectionSyntax } from "./section.js";
import { TextArguments } from "./text-arguments.js";

/**
 * The XML-like call of DeepSeek's DSML and MiniMax M2: `<invoke name="NAME">`, then parameters
 * `<parameter name="K" …>V</parameter>`, then `</invoke>` (each tag with the family's own prefix), inside a section.
 */
export interface InvokeSyntax {
  /** The section; its `callBegin` is the invoke tag's start (`<invoke`), its `callEnd` the closing tag. */
  section: SectionSyntax;
  /** The start of a parameter tag (`<parameter`) and its closing tag (`</parameter>`). */
  parameterOpen: string;
  parameterClose: string;
  /** What the template writes before the section, in content (dropped once a call is read). */
  separator: Separator;
  /** Types one parameter's text by the family's rule and adds it. */
  add(args: TextArguments, key: string, text: string, attributes: ReadonlyMap<string, string>): void;
}

/** The attributes of a tag's text (`name="x" string="true"`; single quotes too). */
export function tagAttributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const match of text.matchAll(/([A-Za-z_]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
    out.set(match[1] as string, (match[2] ?? match[3]) as string);
  return out;
}

/** Reads a tag's rest up to `>` (after `<invoke` or `<parameter`); `null` when the text ends first. */
function* tagRest(reader: Reader): Step<string | null> {
  const text = yield* reader.upTo(">", 4096);
  if ((yield* reader.peekChar()) !== ">") return null;
  reader.consume(1);
  return text;
}

/**
 * Reads one invoke after its opening marker (the reader is inside the tag, at ` name="…">`): the call is announced
 * once its name is known, and each parameter is passed on as an argument delta once its closing tag is known (a
 * value ends at the first closing tag followed by another parameter, `</invoke>` or the end of the text). Whole
 * parameters and then the end of the text are a call without its closing tags (`call_unclosed`, as every family reads
 * it); a whole JSON object in place of the parameters is the arguments (`call_json_form`); a malformed invoke goes
 * back to content with its text, and the section goes on after it.
 */
export function* readInvoke(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  syntax: InvokeSyntax,
  options: {
    channel: Channel;
    prefix: string;
    /** A name the family read before the tag (Step3's `function<｜tool_sep｜>NAME`): the invoke must name it too. */
    name?: string;
  },
): Step<CallOutcome> {
  const { channel } = options;
  const inInvoke = MarkerSet.of([syntax.parameterOpen, syntax.section.callEnd]);
  const callEnd = MarkerSet.of([syntax.section.callEnd]);
  const valueTags = {
    closer: MarkerSet.of([syntax.parameterClose]),
    followers: inInvoke,
    stops: MarkerSet.of([syntax.parameterClose, syntax.parameterOpen, syntax.section.callEnd]),
  };
  reader.record();
  const fail = callFailer(reader, out, { syntax: syntax.section, channel, prefix: options.prefix });
  const head = yield* tagRest(reader);
  if (head === null)
    return yield* fail(
      reader.exhausted ? "call_truncated" : "call_invalid",
      "an invoke tag that does not close",
    );
  const name = tagAttributes(head).get("name")?.trim() ?? "";
  if (name === "") return yield* fail("call_invalid", "an invoke without a name");
  if (options.name !== undefined && options.name !== name)
    return yield* fail("call_invalid", `the call names ${options.name} before an invoke of ${name}`);
  out.start(name, context.createId(out.index, name), channel, syntax.separator);
  context.checkName(name, out);
  yield* reader.space();
  if ((yield* reader.peekChar()) === "{") {
    // A JSON object in place of the parameters (SGLang reads DSML's JSON form): one reading, when it is whole and
    // the invoke closes after it.
    const read = yield* readJsonArguments(reader, out, { end: null, tool: name });
    if (read.status === "end") return yield* fail("call_truncated", "the text ends inside a tool call");
    if (read.status === "invalid") return yield* fail("call_invalid", read.message);
    yield* reader.space();
    const close = yield* reader.peek(callEnd);
    if (close === null)
      return yield* fail(
        reader.exhausted ? "call_truncated" : "call_invalid",
        "text after the JSON arguments",
      );
    reader.consume(close.length);
    out.issue({
      code: "call_json_form",
      severity: "warning",
      message: "a JSON object in place of the parameters: read as the arguments",
      tool: name,
    });
    reader.takeRecord();
    out.end(read.text);
    return "ok";
  }
  const args = new TextArguments(name, context, out);
  for (;;) {
    yield* reader.space();
    const next = yield* reader.peek(inInvoke);
    if (next === null && reader.exhausted) {
      // Whole parameters, then the end of the text: a call without its closing tags, as every family reads it.
      out.issue({
        code: "call_unclosed",
        severity: "info",
        message: `${syntax.section.callEnd} is missing`,
        tool: name,
      });
      reader.takeRecord();
      out.end(args.finish());
      return "ended";
    }
    if (next === null)
      return yield* fail(
        reader.exhausted ? "call_truncated" : "call_invalid",
        "text inside an invoke that is not a parameter",
      );
    reader.consume(next.length);
    if (next === syntax.section.callEnd) break;
    const tag = yield* tagRest(reader);
    if (tag === null)
      return yield* fail(
        reader.exhausted ? "call_truncated" : "call_invalid",
        "a parameter tag that does not close",
      );
    const attributes = tagAttributes(tag);
    const value = yield* readValue(reader, valueTags);
    if (value.status === "end") return yield* fail("call_truncated", "the text ends inside a tool call");
    const parameter = attributes.get("name") ?? "";
    if (value.unclosed) valueUnclosed(out, { tool: name, parameter, closer: syntax.parameterClose });
    syntax.add(args, parameter, value.text, attributes);
  }
  reader.takeRecord();
  out.end(args.finish());
  return "ok";
}
