import { JsonNumber } from "@toolcall/core";
import { type EncodableToolCall, isPlainObject, type ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsMapping, pythonJsonText } from "../engine/arguments.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Channel, Output } from "../engine/output.js";
import type { Reader, Step } from "../engine/reader.js";
import { type CallOutcome, callFailer, readSection, type SectionSyntax } from "../engine/section.js";
import { TextArguments } from "../engine/text-arguments.js";
import { plainCheck, type ReasoningSyntax, type ResponseSyntax, textLoop } from "../engine/text-loop.js";
import { isToolName } from "../engine/tool-name.js";

/** Kimi K3's XTML separator, the token that ends every channel tag. */
export const KIMI3_SEP = "<|sep|>";
export const KIMI3_THINK_OPEN = "<|open|>think<|sep|>";
export const KIMI3_THINK_CLOSE = "<|close|>think<|sep|>";
export const KIMI3_RESPONSE_OPEN = "<|open|>response<|sep|>";
export const KIMI3_RESPONSE_CLOSE = "<|close|>response<|sep|>";
export const KIMI3_TOOLS_OPEN = "<|open|>tools<|sep|>";
export const KIMI3_TOOLS_CLOSE = "<|close|>tools<|sep|>";
export const KIMI3_MESSAGE_CLOSE = "<|close|>message<|sep|>";
/** A call's tag: attributes (`tool="NAME" index="N"`) follow before {@link KIMI3_SEP}. */
export const KIMI3_CALL_OPEN = "<|open|>call";
export const KIMI3_CALL_CLOSE = "<|close|>call<|sep|>";
/** An argument's tag: attributes (`key="K" type="T"`) follow before {@link KIMI3_SEP}. */
export const KIMI3_ARGUMENT_OPEN = "<|open|>argument";
export const KIMI3_ARGUMENT_CLOSE = "<|close|>argument<|sep|>";
/** The whole arguments as one JSON object (`<|open|>json type="object"<|sep|>{…}<|close|>json<|sep|>`). */
export const KIMI3_JSON_OPEN = "<|open|>json";
export const KIMI3_JSON_CLOSE = "<|close|>json<|sep|>";

/**
 * The think channel. The generation prompt opens it (`startInReasoning`); a close cut before its separator (SGLang's
 * reasoning parser reads `<|close|>think` so) and the message's end inside it close it too.
 */
const THINK: ReasoningSyntax = {
  open: KIMI3_THINK_OPEN,
  close: KIMI3_THINK_CLOSE,
  lead: "",
  trail: "",
  after: "",
  before: "",
  spellings: [
    { open: KIMI3_THINK_OPEN, close: "<|close|>think" },
    { open: KIMI3_THINK_OPEN, close: KIMI3_MESSAGE_CLOSE },
  ],
};
const RESPONSE: ResponseSyntax = {
  open: KIMI3_RESPONSE_OPEN,
  close: KIMI3_RESPONSE_CLOSE,
  lead: "",
  trail: "",
};

const SECTION: SectionSyntax = {
  sectionBegin: KIMI3_TOOLS_OPEN,
  callBegin: KIMI3_CALL_OPEN,
  callEnd: KIMI3_CALL_CLOSE,
  sectionEnds: [KIMI3_TOOLS_CLOSE],
};
const TOKEN = new MarkerSet(["<|"]);
const THINK_OPEN_SET = new MarkerSet([KIMI3_THINK_OPEN]);
const SEP = new MarkerSet([KIMI3_SEP]);
const IN_CALL = new MarkerSet([
  KIMI3_ARGUMENT_OPEN,
  KIMI3_JSON_OPEN,
  KIMI3_CALL_CLOSE,
  KIMI3_CALL_OPEN,
  KIMI3_TOOLS_CLOSE,
]);
/** Where a value ends: its close, or any tag that cannot stand inside a value (the value was left open). */
const valueEnds = (close: string) =>
  MarkerSet.of([
    close,
    KIMI3_ARGUMENT_OPEN,
    KIMI3_JSON_OPEN,
    KIMI3_CALL_OPEN,
    KIMI3_CALL_CLOSE,
    KIMI3_TOOLS_CLOSE,
  ]);
const ARGUMENT_VALUE_END = valueEnds(KIMI3_ARGUMENT_CLOSE);
const JSON_VALUE_END = valueEnds(KIMI3_JSON_CLOSE);

/** `&amp;` and `&quot;` as the template escapes an attribute, read back in one pass. */
function unescapeAttribute(value: string): string {
  return value.replace(/&(amp|quot);/g, (_, entity: string) => (entity === "amp" ? "&" : '"'));
}

/** `&` and `"` as the template (and SGLang's structural tag) escapes an attribute. */
function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}

const ATTRIBUTE = /\s+(\w+)="([^"]*)"/y;
const SPACE_ONLY = /^\s*$/;
/** What attributes cut by the end of the text may look like (` tool="na`). */
const ATTRIBUTES_CUT = /^(?:\s+\w+="[^"]*")*(?:\s+\w*(?:="[^"]*)?)?\s*$/;

/** `  key="v" type="t"` as a map, or `undefined` when the text is anything else. Linear: one sticky pass. */
function parseAttributes(text: string): Map<string, string> | undefined {
  const values = new Map<string, string>();
  ATTRIBUTE.lastIndex = 0;
  let at = 0;
  for (;;) {
    const match = ATTRIBUTE.exec(text);
    if (match === null) break;
    values.set(match[1] as string, unescapeAttribute(match[2] as string));
    at = ATTRIBUTE.lastIndex;
  }
  return SPACE_ONLY.test(text.slice(at)) ? values : undefined;
}

/** The attributes read (empty unless `ok`). */
type Attributes = { status: "ok" | "invalid" | "end"; values: Map<string, string> };
const NONE = new Map<string, string>();

/** The attributes after a tag's name, up to and including `<|sep|>`. */
function* readAttributes(reader: Reader): Step<Attributes> {
  const parts: string[] = [];
  yield* reader.before(TOKEN, (text) => parts.push(text));
  const text = parts.join("");
  if ((yield* reader.peek(SEP)) === null) {
    const atEnd = reader.exhausted;
    // Attributes cut by the end of the text are a call cut short; anything else is no tag.
    return { status: atEnd && ATTRIBUTES_CUT.test(text) ? "end" : "invalid", values: NONE };
  }
  reader.consume(KIMI3_SEP.length);
  const values = parseAttributes(text);
  return values === undefined ? { status: "invalid", values: NONE } : { status: "ok", values };
}

/** The JSON Schema a `type` attribute stands for when the tool gives none (`string`: the text as written). */
function declaredSchema(type: string): { type: string } | undefined {
  return ["string", "number", "integer", "boolean", "array", "object", "null"].includes(type)
    ? { type }
    : undefined;
}

/** Reads one call after `<|open|>call`: its attributes, then arguments up to `<|close|>call<|sep|>`. */
function* readCall(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  options: { channel: Channel; prefix: string },
): Step<CallOutcome> {
  const { channel } = options;
  reader.record();
  const fail = callFailer(reader, out, { syntax: SECTION, channel, prefix: options.prefix });
  const attributes = yield* readAttributes(reader);
  if (attributes.status === "end") return yield* fail("call_truncated", "the text ends inside a tool call");
  if (attributes.status === "invalid") return yield* fail("call_invalid", "a call tag that does not read");
  const name = attributes.values.get("tool");
  if (name === undefined || !isToolName(name))
    return yield* fail("call_invalid", "a call without a tool name");
  out.start(name, context.createId(out.index, name), channel);
  context.checkName(name, out);
  const args = new TextArguments(name, context, out);
  for (;;) {
    yield* reader.space();
    const next = yield* reader.peek(IN_CALL);
    if (next === KIMI3_CALL_CLOSE) {
      reader.consume(next.length);
      break;
    }
    if (next === KIMI3_CALL_OPEN || next === KIMI3_TOOLS_CLOSE || (next === null && reader.exhausted)) {
      // Whole arguments, then the next call, the section's end or the end of the text: a call missing its end.
      out.issue({
        code: "call_unclosed",
        severity: "info",
        message: `${KIMI3_CALL_CLOSE} is missing`,
        tool: name,
      });
      reader.takeRecord();
      out.end(args.finish());
      return next === null ? "ended" : "ok";
    }
    if (next === null) return yield* fail("call_invalid", "text inside a call that is not an argument");
    reader.consume(next.length);
    const tag = yield* readAttributes(reader);
    if (tag.status === "end") return yield* fail("call_truncated", "the text ends inside a tool call");
    if (tag.status === "invalid") return yield* fail("call_invalid", "an argument tag that does not read");
    const close = next === KIMI3_JSON_OPEN ? KIMI3_JSON_CLOSE : KIMI3_ARGUMENT_CLOSE;
    const parts: string[] = [];
    const found = yield* reader.before(
      next === KIMI3_JSON_OPEN ? JSON_VALUE_END : ARGUMENT_VALUE_END,
      (text) => parts.push(text),
    );
    if (found === null) return yield* fail("call_truncated", "the text ends inside a tool call");
    if (found !== close) return yield* fail("call_invalid", `a value without its ${close}`);
    reader.consume(close.length);
    const value = parts.join("");
    if (next === KIMI3_JSON_OPEN) {
      let whole: unknown;
      try {
        whole = JSON.parse(value);
      } catch {
        whole = undefined;
      }
      if (!isPlainObject(whole)) return yield* fail("call_invalid", "a JSON block that is not a JSON object");
      for (const [key, entry] of Object.entries(whole)) args.addTypedValue(key, entry);
      continue;
    }
    const key = tag.values.get("key");
    if (key === undefined) return yield* fail("call_invalid", "an argument without a key");
    const type = tag.values.get("type") ?? "string";
    args.addText(key, value, declaredSchema(type));
  }
  reader.takeRecord();
  out.end(args.finish());
  return "ok";
}

/** `<|close|>message<|sep|>` ends the message: syntax when only white space follows it, text anywhere else. */
function* readMessageEnd(reader: Reader, out: Output, channel: Channel): Step<void> {
  const space = yield* reader.space();
  if ((yield* reader.peekChar()) === null) out.text(channel, space);
  else out.text(channel, KIMI3_MESSAGE_CLOSE + space);
}

/** A step that reads nothing. */
function* NOTHING(): Step<void> {}

/** A value's XTML type as SGLang's structural tag names it (an integer is a `number`). */
function xtmlType(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number" || typeof value === "bigint" || value instanceof JsonNumber) return "number";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : "string";
}

/**
 * Encodes calls as Kimi K3's template renders them: `<|open|>tools<|sep|>`, per call
 * `<|open|>call tool="NAME" index="N"<|sep|>` (N counts from 1), per argument
 * `<|open|>argument key="K" type="T"<|sep|>V<|close|>argument<|sep|>` (a string as it is, anything else as `tojson`;
 * `&` and `"` of a name or key escaped), `<|close|>call<|sep|>`, then `<|close|>tools<|sep|>`; nothing between.
 *
 * @example
 * encodeKimiK3([{ function: { name: "get_weather", arguments: '{"city": "Tokyo", "days": 2}' } }]);
 * // '<|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|><|open|>argument key="city" type="string"<|sep|>Tokyo<|close|>argument<|sep|><|open|>argument key="days" type="number"<|sep|>2<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>'
 */
export function encodeKimiK3(calls: readonly EncodableToolCall[]): string {
  const body = calls
    .map((call, index) => {
      const args = Object.entries(argumentsMapping(call))
        .map(
          ([key, value]) =>
            `${KIMI3_ARGUMENT_OPEN} key="${escapeAttribute(key)}" type="${xtmlType(value)}"${KIMI3_SEP}${
              typeof value === "string" ? value : pythonJsonText(value)
            }${KIMI3_ARGUMENT_CLOSE}`,
        )
        .join("");
      return `${KIMI3_CALL_OPEN} tool="${escapeAttribute(call.function.name)}" index="${index + 1}"${KIMI3_SEP}${args}${KIMI3_CALL_CLOSE}`;
    })
    .join("");
  return `${KIMI3_TOOLS_OPEN}${body}${KIMI3_TOOLS_CLOSE}`;
}

/**
 * Kimi K3 ("XTML" channels of special tokens): reasoning in `<|open|>think<|sep|>…<|close|>think<|sep|>` (the
 * generation prompt opens it: pass `startInReasoning: true`), the reply in
 * `<|open|>response<|sep|>…<|close|>response<|sep|>`, then the calls in
 * `<|open|>tools<|sep|><|open|>call tool="NAME" index="1"<|sep|><|open|>argument key="K" type="T"<|sep|>V<|close|>argument<|sep|>…<|close|>call<|sep|>…<|close|>tools<|sep|>`,
 * and `<|close|>message<|sep|>` at the end.
 *
 * Rules: the call's name is its `tool` attribute (`&amp;` and `&quot;` read back); each value is typed by the tool's
 * JSON Schema when the tools give one, else by its `type` attribute (`string` or none: the text as written; any other:
 * JSON, kept as text with `parameter_type_mismatch` when it is not); a `<|open|>json type="object"<|sep|>{…}` block
 * gives the arguments whole; a call without a `tool` attribute, with junk between its arguments or a value left open
 * is `call_invalid` and stays in content as written; a call cut short stays in content (`call_truncated`); whole
 * arguments without `<|close|>call<|sep|>` are read (`call_unclosed`), and a section without its end keeps its calls
 * (`section_unclosed`); a call outside a section is read (`call_unopened`); `index` is not checked; a reply's close with
 * no opener before any call ends the reply the prompt opened (syntax). Arguments stream pair by pair.
 *
 * @example
 * kimiK3.parse('<|open|>think<|sep|>Tokyo it is.<|close|>think<|sep|><|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|><|open|>argument key="city" type="string"<|sep|>Tokyo<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>');
 * // { reasoning: "Tokyo it is.", content: null, toolCalls: [{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' }, … }], issues: [] }
 */
export const kimiK3: ToolCallSyntax = defineSyntax({
  id: "kimi-k3",
  name: "Kimi K3 (XTML: <|open|>tools<|sep|><|open|>call tool=…)",
  startMarkers: [KIMI3_TOOLS_OPEN, KIMI3_CALL_OPEN],
  // Every marker holds `|>`: text without it is content. (`<|` too, but `<` is common in answers with code, and the
  // native search stops at each one.)
  plain: plainCheck("|>", []),
  *run(reader, out, context) {
    // The prompt may open the reply (`<|open|>response<|sep|>`), so the text starts inside it: its close, before any
    // call and with no reply opened in the text, is syntax (once); any other stray close is text.
    let replyClosed = false;
    // The prompt opened the think channel and the model wrote its opener again: that opener is syntax too.
    if (context.startInReasoning && (yield* reader.peek(THINK_OPEN_SET)) !== null)
      reader.consume(KIMI3_THINK_OPEN.length);
    yield* textLoop(reader, out, context, {
      callMarkers: [KIMI3_TOOLS_OPEN, KIMI3_CALL_OPEN, KIMI3_MESSAGE_CLOSE, KIMI3_RESPONSE_CLOSE],
      reasoning: THINK,
      response: RESPONSE,
      onCall: (marker, channel) => {
        if (marker === KIMI3_MESSAGE_CLOSE) return readMessageEnd(reader, out, channel);
        if (marker === KIMI3_RESPONSE_CLOSE) {
          const syntax = !replyClosed && out.index === 0 && channel === "content";
          replyClosed = true;
          if (!syntax) out.text(channel, marker);
          return NOTHING();
        }
        return readSection(reader, out, {
          syntax: SECTION,
          opener: marker,
          channel,
          readCall: (prefix) => readCall(reader, out, context, { channel, prefix }),
        });
      },
    });
  },
  encode: encodeKimiK3,
});
