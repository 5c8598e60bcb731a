import { JsonNumber } from "@toolcall/core";
import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { convertParameterValue } from "@toolcall/core/kit";
import { argumentsMapping, pythonJsonText } from "../engine/arguments.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { tagAttributes } from "../engine/invoke.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Channel, Output } from "../engine/output.js";
import type { Reader, Step } from "../engine/reader.js";
import { type CallOutcome, callFailer, readSection, type SectionSyntax } from "../engine/section.js";
import { TextArguments } from "../engine/text-arguments.js";
import { plainCheck, type ReasoningSyntax, textLoop } from "../engine/text-loop.js";

/** The namespace token MiniMax M3 writes before every tag of a call. */
export const MINIMAX_M3_NS = "]<]minimax[>[";
export const MINIMAX_M3_CALLS_OPEN = `${MINIMAX_M3_NS}<tool_call>`;
export const MINIMAX_M3_CALLS_CLOSE = `${MINIMAX_M3_NS}</tool_call>`;
export const MINIMAX_M3_INVOKE_OPEN = `${MINIMAX_M3_NS}<invoke`;
export const MINIMAX_M3_INVOKE_CLOSE = `${MINIMAX_M3_NS}</invoke>`;

const TAG_OPEN = `${MINIMAX_M3_NS}<`;
const TAG = new MarkerSet([TAG_OPEN]);
const IN_INVOKE = new MarkerSet([MINIMAX_M3_INVOKE_CLOSE, TAG_OPEN]);
/** Nesting deeper than this is not a value a tool takes: the call is invalid (and the reader's stack stays small). */
const MAX_DEPTH = 64;

/** `<mm:think>…</mm:think>`; a turn without reasoning starts with `</mm:think>` (the template's prefix). */
const MM_THINK: ReasoningSyntax = {
  open: "<mm:think>",
  close: "</mm:think>",
  lead: "",
  trail: "",
  after: "",
  before: "",
};

/** The bare `</mm:think>` a turn without reasoning starts with. */
const THINK_CLOSE = new MarkerSet([MM_THINK.close]);

const SECTION: SectionSyntax = {
  sectionBegin: MINIMAX_M3_CALLS_OPEN,
  callBegin: MINIMAX_M3_INVOKE_OPEN,
  callEnd: MINIMAX_M3_INVOKE_CLOSE,
  sectionEnds: [MINIMAX_M3_CALLS_CLOSE],
};

/** A value as the template writes it: a mapping's entries as `NS<k>…NS</k>`, a list's as `NS<item>…NS</item>`. */
function xmlValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  // A number decoded losslessly is an object that keeps its text: written as Python's `str` writes it.
  if (value instanceof JsonNumber) return pythonJsonText(value);
  if (Array.isArray(value))
    return value.map((item) => `${TAG_OPEN}item>${xmlValue(item)}${TAG_OPEN}/item>`).join("");
  if (typeof value === "object")
    return Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== null && entry !== undefined)
      .map(([key, entry]) => `${TAG_OPEN}${key}>${xmlValue(entry)}${TAG_OPEN}/${key}>`)
      .join("");
  if (typeof value === "string") return value;
  return pythonJsonText(value);
}

/**
 * Encodes calls as MiniMax M3's template renders them: `NS<tool_call>\n`, per call `NS<invoke name="NAME">`, per
 * argument `NS<K>V NS</K>` (a nested object or list expanded into elements, `null` left out), `NS</invoke>\n`, then
 * `NS</tool_call>` (`NS` is the namespace token `]<]minimax[>[`).
 *
 * @example
 * encodeMinimaxM3([{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } }]);
 * // ']<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name="get_weather">]<]minimax[>[<city>Tokyo]<]minimax[>[</city>]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>'
 */
export function encodeMinimaxM3(calls: readonly EncodableToolCall[]): string {
  const invokes = calls
    .map(
      (call) =>
        `${MINIMAX_M3_INVOKE_OPEN} name="${call.function.name}">${xmlValue(argumentsMapping(call))}${MINIMAX_M3_INVOKE_CLOSE}\n`,
    )
    .join("");
  return `${MINIMAX_M3_CALLS_OPEN}\n${invokes}${MINIMAX_M3_CALLS_CLOSE}`;
}

/** One element read: its text when it holds no element, else its children. */
interface Element {
  key: string;
  text: string;
  children: Element[];
}

type ElementRead = { status: "ok"; element: Element } | { status: "invalid" | "end" };

/** Reads a tag's name up to `>` (after `NS<` or `NS</`); `null` when no `>` follows. */
function* tagName(reader: Reader): Step<string | null> {
  const name = yield* reader.upTo(">", 4096);
  if ((yield* reader.peekChar()) !== ">") return null;
  reader.consume(1);
  return name;
}

/**
 * Reads one element after its `NS<`: its name, then text or child elements, up to `NS</name>`. Every character is
 * read once; the depth is bounded, so hostile nesting ends as an invalid call, never a deep stack.
 */
function* readElement(reader: Reader, depth: number): Step<ElementRead> {
  if (depth > MAX_DEPTH) return { status: "invalid" };
  const key = yield* tagName(reader);
  if (key === null) return { status: reader.ended ? "end" : "invalid" };
  const parts: string[] = [];
  const children: Element[] = [];
  for (;;) {
    const found = yield* reader.until(TAG, (text) => parts.push(text));
    if (found === null) return { status: "end" };
    if ((yield* reader.peekChar()) === "/") {
      reader.consume(1);
      const closing = yield* tagName(reader);
      if (closing === null) return { status: reader.ended ? "end" : "invalid" };
      if (closing !== key) return { status: "invalid" };
      return { status: "ok", element: { key, text: parts.join(""), children } };
    }
    const child = yield* readElement(reader, depth + 1);
    if (child.status !== "ok") return child;
    children.push(child.element);
  }
}

const schemaType = (schema: unknown): unknown =>
  typeof schema === "object" && schema !== null ? (schema as { type?: unknown }).type : undefined;
const schemaPart = (schema: unknown, part: "items" | "properties", key?: string): unknown => {
  if (typeof schema !== "object" || schema === null) return undefined;
  const value = (schema as Record<string, unknown>)[part];
  if (key === undefined) return value;
  return typeof value === "object" && value !== null && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
};

/**
 * An element's value: a list when the schema says array (or, without one, when every child is an `item`), an object
 * for other children; an element with no children is its text typed by the schema (an empty one is `{}` or `[]`
 * where the schema wants those), or the text itself.
 */
function elementValue(element: Element, schema: unknown): unknown {
  const type = schemaType(schema);
  if (element.children.length === 0) {
    if (element.text === "" && type === "object") return {};
    if (element.text === "" && type === "array") return [];
    if (schema === undefined) return element.text;
    const converted = convertParameterValue({ text: element.text, schema });
    return converted.success ? converted.value : element.text;
  }
  const list = type === "array" || (type !== "object" && element.children.every((c) => c.key === "item"));
  if (list) return element.children.map((child) => elementValue(child, schemaPart(schema, "items")));
  const object: Record<string, unknown> = {};
  for (const child of element.children)
    Object.defineProperty(object, child.key, {
      value: elementValue(child, schemaPart(schema, "properties", child.key)),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return object;
}

/** Reads one invoke after `NS<invoke` (inside the tag, at ` name="…">`) up to `NS</invoke>`. */
function* readInvokeM3(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  options: { channel: Channel; prefix: string },
): Step<CallOutcome> {
  const { channel } = options;
  reader.record();
  const fail = callFailer(reader, out, { syntax: SECTION, channel, prefix: options.prefix });
  const head = yield* tagName(reader);
  if (head === null)
    return yield* fail(
      reader.exhausted ? "call_truncated" : "call_invalid",
      "an invoke tag that does not close",
    );
  const name = tagAttributes(head).get("name")?.trim() ?? "";
  if (name === "") return yield* fail("call_invalid", "an invoke without a name");
  out.start(name, context.createId(out.index, name), channel, "\n");
  context.checkName(name, out);
  const args = new TextArguments(name, context, out);
  for (;;) {
    yield* reader.space();
    const next = yield* reader.peek(IN_INVOKE);
    if (next === null)
      return yield* fail(
        reader.exhausted ? "call_truncated" : "call_invalid",
        "text inside an invoke that is not a parameter",
      );
    reader.consume(next.length);
    if (next === MINIMAX_M3_INVOKE_CLOSE) break;
    const read = yield* readElement(reader, 0);
    if (read.status === "end") return yield* fail("call_truncated", "the text ends inside a tool call");
    if (read.status !== "ok") return yield* fail("call_invalid", "a parameter whose tags do not match");
    const { element } = read;
    const schema = context.tools.parameter(name, element.key);
    const type = schemaType(schema);
    if (element.children.length === 0 && !(element.text === "" && (type === "object" || type === "array")))
      args.addText(element.key, element.text);
    else args.addValue(element.key, elementValue(element, schema));
  }
  reader.takeRecord();
  out.end(args.finish());
  return "ok";
}

/**
 * MiniMax M3: every tag of a call carries the namespace token `]<]minimax[>[` (`NS`): `NS<tool_call>`, per call
 * `NS<invoke name="NAME">`, per argument `NS<K>V NS</K>` with nested objects and lists expanded into elements
 * (`NS<item>` for a list's members), `NS</invoke>`, then `NS</tool_call>`; reasoning in `<mm:think>…</mm:think>`
 * (an answer without reasoning starts with a bare `</mm:think>`, which is dropped; the generation prompt opens
 * `<mm:think>` when thinking is enabled: parse with `startInReasoning` then).
 *
 * Rules: a value with no element inside is its text typed by the tool's JSON Schema (core's `convertParameterValue`;
 * without a schema it stays text); nested elements build the object or list the schema names (without a schema,
 * children all named `item` are a list); an element whose closing tag does not match its opening one makes the call
 * invalid (it goes back to content, the section goes on); a section cut short keeps its complete calls
 * (`section_unclosed`).
 *
 * @example
 * minimaxM3.parse(']<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name="get_weather">]<]minimax[>[<city>Tokyo]<]minimax[>[</city>]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>').toolCalls[0].function;
 * // { name: "get_weather", arguments: '{"city": "Tokyo"}' }
 */
export const minimaxM3: ToolCallSyntax = defineSyntax({
  id: "minimax-m3",
  name: "MiniMax M3 (]<]minimax[>[<tool_call>, nested XML arguments)",
  startMarkers: [MINIMAX_M3_CALLS_OPEN],
  plain: plainCheck(MINIMAX_M3_NS, [MM_THINK.open, MM_THINK.close]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [MINIMAX_M3_CALLS_OPEN],
      reasoning: MM_THINK,
      // The system prompt tells the model to begin an answer without reasoning after `</mm:think>`, and the template
      // writes such a turn so: where the content begins, that marker is syntax, dropped with the space before it.
      *atStart() {
        const space = yield* reader.space();
        if ((yield* reader.peek(THINK_CLOSE)) === null) out.text("content", space);
        else reader.consume(MM_THINK.close.length);
        reader.journalCommit();
      },
      onCall: (marker, channel) =>
        readSection(reader, out, {
          syntax: SECTION,
          opener: marker,
          channel,
          readCall: (prefix) => readInvokeM3(reader, out, context, { channel, prefix }),
        }),
    });
  },
  encode: encodeMinimaxM3,
});
