import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Channel, Output } from "../engine/output.js";
import type { Reader, Step } from "../engine/reader.js";
import { type CallOutcome, callFailer, type SectionSyntax } from "../engine/section.js";
import { TextArguments } from "../engine/text-arguments.js";
import { plainCheck, type ReasoningSyntax, textLoop } from "../engine/text-loop.js";
import { encodeHyV3, encodeHyV4, HY_SUFFIX, type HyTags, hyTags } from "./hy-encode.js";

/** The marker sets a section of one spelling is read with, built once per spelling. */
class Spelling {
  readonly tags: HyTags;
  readonly section: SectionSyntax;
  readonly inside: MarkerSet;
  readonly nameEnd: MarkerSet;
  readonly inCall: MarkerSet;
  readonly keyEnd: MarkerSet;
  readonly valueOpen: MarkerSet;
  readonly valueEnd: MarkerSet;

  constructor(tags: HyTags) {
    const t = tags;
    this.tags = t;
    this.section = {
      sectionBegin: t.callsOpen,
      callBegin: t.callOpen,
      callEnd: t.callClose,
      sectionEnds: [t.callsClose],
    };
    this.inside = new MarkerSet([t.callOpen, t.callsClose]);
    this.nameEnd = new MarkerSet([t.sep, t.keyOpen, t.callClose, t.callOpen, t.callsClose]);
    this.inCall = new MarkerSet([t.keyOpen, t.callClose]);
    this.keyEnd = new MarkerSet([
      t.keyClose,
      t.valueOpen,
      t.valueClose,
      t.callClose,
      t.callOpen,
      t.callsClose,
    ]);
    this.valueOpen = new MarkerSet([t.valueOpen]);
    this.valueEnd = new MarkerSet([t.valueClose, t.callClose, t.callOpen, t.callsClose]);
  }
}

/**
 * Reads a value after `<arg_value>`: text up to the first `</arg_value>` followed (after whitespace) by the next
 * pair, the call's end or the end of the text; another `</arg_value>` is part of the value, a call's or the section's
 * tag is not (`false`: the call is malformed, and no later call is swallowed). `null`: the text ends first. Linear.
 */
function* readHyValue(reader: Reader, spelling: Spelling): Step<string | null | false> {
  const parts: string[] = [];
  const sink = (text: string) => {
    parts.push(text);
  };
  for (;;) {
    const found = yield* reader.before(spelling.valueEnd, sink);
    if (found === null) return null;
    if (found !== spelling.tags.valueClose) return false;
    reader.consume(found.length);
    const space = yield* reader.space();
    if ((yield* reader.peek(spelling.inCall)) !== null || reader.exhausted) return parts.join("");
    parts.push(found, space);
  }
}

/** Reads one call after `<tool_call>`: `NAME`, `<tool_sep>` (Hy3; Hy4 writes none), then key/value pairs. */
function* readCall(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  spelling: Spelling,
  channel: Channel,
  prefix: string,
): Step<CallOutcome> {
  const t = spelling.tags;
  reader.record();
  const fail = callFailer(reader, out, { syntax: spelling.section, channel, prefix });
  const truncated = "the text ends inside a tool call";
  const nameParts: string[] = [];
  const ender = yield* reader.before(spelling.nameEnd, (text) => nameParts.push(text));
  const name = nameParts.join("").trim();
  if (ender === null) return yield* fail("call_truncated", truncated);
  if (ender === t.callOpen || ender === t.callsClose)
    return yield* fail("call_invalid", `${t.callClose} is missing`);
  if (name === "" || name.includes("<")) return yield* fail("call_invalid", "a tool call without a name");
  if (ender === t.sep) reader.consume(ender.length);
  out.start(name, context.createId(out.index, name), channel);
  context.checkName(name, out);
  const args = new TextArguments(name, context, out);
  for (;;) {
    yield* reader.space();
    const next = yield* reader.peek(spelling.inCall);
    if (next === null) {
      if (reader.exhausted) {
        // The last pair was complete and the text ends (a length stop): the call, without its closing tag.
        out.issue({
          code: "call_unclosed",
          severity: "info",
          message: `${t.callClose} is missing`,
          tool: name,
        });
        reader.takeRecord();
        out.end(args.finish());
        return "ok";
      }
      return yield* fail("call_invalid", `expected ${t.keyOpen} or ${t.callClose}`);
    }
    reader.consume(next.length);
    if (next === t.callClose) {
      reader.takeRecord();
      out.end(args.finish());
      return "ok";
    }
    const keyParts: string[] = [];
    const keyEnd = yield* reader.before(spelling.keyEnd, (text) => keyParts.push(text));
    if (keyEnd === null) return yield* fail("call_truncated", truncated);
    if (keyEnd !== t.keyClose) return yield* fail("call_invalid", `${t.keyClose} is missing`);
    reader.consume(keyEnd.length);
    const key = keyParts.join("").trim();
    yield* reader.space();
    if ((yield* reader.peek(spelling.valueOpen)) === null) {
      if (reader.exhausted) return yield* fail("call_truncated", truncated);
      // A key without its value (vLLM's strict Hy4 parser refuses the call too): no half-read call runs.
      return yield* fail("call_invalid", `${JSON.stringify(key)} has no ${t.valueOpen}`);
    }
    reader.consume(t.valueOpen.length);
    const value = yield* readHyValue(reader, spelling);
    if (value === null) return yield* fail("call_truncated", truncated);
    if (value === false) return yield* fail("call_invalid", `${t.valueClose} is missing`);
    args.addText(key, value);
  }
}

/**
 * Reads a section after its `<tool_calls>`: calls, whitespace between them (the template's newlines: syntax), and
 * `</tool_calls>`. A section in which no call could be read is text, all of it (its tags included); one cut short
 * keeps its complete calls (`section_unclosed`).
 */
function* readSection(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  spelling: Spelling,
  opener: string,
  channel: Channel,
): Step<void> {
  const t = spelling.tags;
  let pending = opener;
  let read = 0;
  for (;;) {
    pending += yield* reader.space();
    const next = yield* reader.peek(spelling.inside);
    if (next === null) {
      out.issue({ code: "section_unclosed", severity: "info", message: `${t.callsClose} is missing` });
      out.text(channel, pending);
      return;
    }
    reader.consume(next.length);
    if (next === t.callsClose) {
      if (read === 0) out.text(channel, pending + next);
      return;
    }
    const outcome = yield* readCall(reader, out, context, spelling, channel, pending + next);
    pending = "";
    if (outcome === "ok") read++;
    if (outcome === "ended") return;
  }
}

/** Which Hy syntax, and the token suffix of the checkpoint (besides the unsuffixed spelling, always read). */
export interface HySyntaxOptions {
  version: "v3" | "v4";
  /** The checkpoint's token suffix, `:` and a tag (`":6124c78e"`); default {@link HY_SUFFIX}. */
  suffix?: string;
}

/**
 * A Hy syntax for a checkpoint whose tokens carry another suffix (vLLM reads it from the tokenizer's vocabulary;
 * here it is given): it reads that spelling and the unsuffixed one, and encodes with the suffix.
 *
 * @example
 * const mine = hySyntax({ version: "v4", suffix: ":6124c78e" });
 * mine.parse("<tool_calls:6124c78e><tool_call:6124c78e>now</tool_call:6124c78e></tool_calls:6124c78e>").toolCalls[0].function.name; // "now"
 */
export function hySyntax(options: HySyntaxOptions): ToolCallSyntax {
  const suffix = options.suffix ?? HY_SUFFIX;
  const spellings = [...new Set([suffix, ""])].map((s) => new Spelling(hyTags(s)));
  const bySectionOpen = new Map(spellings.map((s) => [s.tags.callsOpen, s]));
  const [first, ...others] = spellings.map((s) => s.tags);
  const main = first as HyTags;
  const reasoning: ReasoningSyntax = {
    open: main.thinkOpen,
    close: main.thinkClose,
    lead: "",
    trail: "",
    after: "\n\n",
    before: "",
    spellings: others.map((t) => ({ open: t.thinkOpen, close: t.thinkClose })),
  };
  const v3 = options.version === "v3";
  const encode = (calls: readonly EncodableToolCall[]) =>
    v3 ? encodeHyV3(calls, { suffix }) : encodeHyV4(calls, { suffix });
  return defineSyntax({
    id: v3 ? "hy-v3" : "hy-v4",
    name: v3
      ? "Hunyuan Hy3 (<tool_calls><tool_call>NAME<tool_sep><arg_key>…)"
      : "Hunyuan Hy4 (<tool_calls><tool_call>NAME<arg_key>…, no <tool_sep>)",
    startMarkers: spellings.map((s) => s.tags.callsOpen),
    // Every spelling of the section's opener holds "_calls": the cheapest correct scan measured (bench section 6;
    // their shared prefix "<tool_calls" scanned 16 KB answers 3× slower than one spelling's whole marker).
    plain: plainCheck(
      "_calls",
      spellings.map((s) => s.tags.thinkOpen),
    ),
    *run(reader, out, context) {
      yield* textLoop(reader, out, context, {
        callMarkers: spellings.map((s) => s.tags.callsOpen),
        reasoning,
        onCall: (marker, channel) =>
          readSection(reader, out, context, bySectionOpen.get(marker) as Spelling, marker, channel),
      });
    },
    encode,
  });
}

/**
 * Tencent Hunyuan Hy3 (vLLM's `hy_v3` parser): `<tool_calls>\n<tool_call>NAME<tool_sep>\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n…</tool_call>\n</tool_calls>`,
 * reasoning in `<think>…</think>` (the generation prompt opens it for `reasoning_effort` `low` / `high`:
 * `startInReasoning`); tokens suffixed `:opensource` (`tencent/Hy3`) or not (`Hy3-preview`), both read.
 *
 * Rules: each value is text typed by the tool's JSON Schema (core's `convertParameterValue`; without a schema it
 * stays text); a value ends at the first `</arg_value>` followed by `<arg_key>`, `</tool_call>` or the end of the
 * text, and may not hold a call's or the section's tag; the name ends at `<tool_sep>`, `<arg_key>` or `</tool_call>`, so Hy4's form is read too; a call outside
 * `<tool_calls>` is text; a malformed call (a key without its value, text between pairs, no name) stays in content
 * and the section goes on; a section in which no call could be read is text; one cut short after complete pairs
 * keeps them (`call_unclosed`, `section_unclosed`); text after `</tool_calls>` is content.
 *
 * @example
 * hyV3.parse("<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>\n</tool_calls>").toolCalls[0].function.arguments;
 * // '{"days": "3"}' without tools, '{"days": 3}' with a tool whose `days` is an integer
 */
export const hyV3: ToolCallSyntax = hySyntax({ version: "v3" });

/**
 * Tencent Hunyuan Hy4 (vLLM's `hy_v4` parser): as {@link hyV3} with no `<tool_sep>` and no whitespace inside a call,
 * `<tool_calls>\n<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>…</tool_call>\n</tool_calls>`, tokens
 * suffixed `:opensource` (Hy4-preview) or not, both read. Same rules as {@link hyV3}.
 *
 * @example
 * hyV4.parse("<tool_calls:opensource><tool_call:opensource>get_current_date</tool_call:opensource></tool_calls:opensource>").toolCalls[0].function;
 * // { name: "get_current_date", arguments: "{}" }
 */
export const hyV4: ToolCallSyntax = hySyntax({ version: "v4" });
