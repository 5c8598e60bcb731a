import { JsonNumber } from "@toolcall/core";
import {
  type ArgumentsMapping,
  DEFAULT_MAX_DEPTH,
  isPlainObject,
  MAX_JSON_TEXT_LENGTH,
  pythonFloatRepr,
} from "@toolcall/core/kit";
import { GEMMA4_TOKENS, type GemmaTokens, GEMMA_QUOTE as QUOTE_TOKEN } from "./gemma4-values.js";

/** Why a mapping could not be written in the native syntax. */
class GemmaEncodeFailure {
  constructor(readonly message: string) {}
}

const JSON_INTEGER = /^-?(?:0|[1-9]\d*)$/;

/** Jinja's `dictsort` (case-insensitive by default): keys compared lower-cased, ties kept in mapping order. */
function dictsort(mapping: ArgumentsMapping): string[] {
  return Object.keys(mapping)
    .map((key, index) => ({ key, lower: key.toLowerCase(), index }))
    .sort((a, b) => (a.lower < b.lower ? -1 : a.lower > b.lower ? 1 : a.index - b.index))
    .map((entry) => entry.key);
}

/** What `{{ value }}` prints in Python's Jinja for a number (no BigInt: its printing is superlinear in the digits). */
function pythonNumber(value: number | bigint | JsonNumber): string {
  if (typeof value === "bigint") return value.toString();
  if (JsonNumber.isInstance(value)) {
    const text = String(value.text);
    if (JSON_INTEGER.test(text)) return text === "-0" ? "0" : text;
    const number = Number(text);
    // A float beyond the double range keeps the digits it was written with (Python would print inf).
    return Number.isFinite(number) ? pythonFloatRepr(number) : text;
  }
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value === 0 ? 0 : value);
  return pythonFloatRepr(value);
}

function encodeMapping(mapping: ArgumentsMapping, quote: string): string {
  let written = 0;
  const count = (text: string): string => {
    written += text.length;
    if (written > MAX_JSON_TEXT_LENGTH)
      throw new GemmaEncodeFailure(`the text would exceed ${MAX_JSON_TEXT_LENGTH} characters`);
    return text;
  };
  const formatValue = (value: unknown, depth: number): string => {
    if (depth > DEFAULT_MAX_DEPTH) throw new GemmaEncodeFailure(`nesting deeper than ${DEFAULT_MAX_DEPTH}`);
    if (typeof value === "string") return count(`${quote}${value}${quote}`);
    if (typeof value === "boolean") return count(value ? "true" : "false");
    if (value === null || value === undefined) return count("None");
    if (typeof value === "number" || typeof value === "bigint" || JsonNumber.isInstance(value))
      return count(pythonNumber(value));
    if (Array.isArray(value)) {
      // At least one character and a comma per item: an array of length 2**32 - 1 is refused before it is walked.
      if (written + 2 * value.length + 1 > MAX_JSON_TEXT_LENGTH)
        throw new GemmaEncodeFailure(`the text would exceed ${MAX_JSON_TEXT_LENGTH} characters`);
      enter(value);
      // Joined a few thousand at a time: a huge array never needs one list as long as itself.
      const chunks: string[] = [];
      let parts: string[] = [];
      for (let i = 0; i < value.length; i++) {
        parts.push(formatValue(value[i], depth + 1));
        if (parts.length === 4096) {
          chunks.push(parts.join(","));
          parts = [];
        }
      }
      if (parts.length > 0 || chunks.length === 0) chunks.push(parts.join(","));
      ancestors.delete(value);
      return `[${chunks.join(",")}]`;
    }
    if (isPlainObject(value)) return formatMapping(value, depth + 1);
    return count(`${quote}${String(value)}${quote}`);
  };
  const ancestors = new Set<object>();
  const enter = (container: object) => {
    if (ancestors.has(container)) throw new GemmaEncodeFailure("circular structure");
    ancestors.add(container);
  };
  const formatMapping = (record: ArgumentsMapping, depth: number): string => {
    enter(record);
    const text = `{${dictsort(record)
      .map((key) => `${count(key)}:${formatValue(record[key], depth)}`)
      .join(",")}}`;
    ancestors.delete(record);
    return text;
  };
  return formatMapping(mapping, 1);
}

/** The native text of a mapping, or why it cannot be written. */
export type GemmaEncodeResult = { ok: true; text: string } | { ok: false; error: string };

/**
 * {@link encodeGemmaArguments} that reports a mapping it cannot write (nested deeper than 1000, a cycle, a getter
 * that throws, a text longer than a string can be) instead of writing the reason. Never throws.
 *
 * @example
 * safeEncodeGemmaArguments({ days: 3 }); // { ok: true, text: "{days:3}" }
 */
export function safeEncodeGemmaArguments(mapping: ArgumentsMapping): GemmaEncodeResult {
  return safeEncodeWith(mapping, QUOTE_TOKEN);
}

function safeEncodeWith(mapping: ArgumentsMapping, quote: string): GemmaEncodeResult {
  try {
    return { ok: true, text: encodeMapping(isPlainObject(mapping) ? mapping : {}, quote) };
  } catch (error) {
    // A getter or proxy trap that throws, or a stack overflow on a pathological value.
    let message = "the mapping cannot be read";
    try {
      if (error instanceof GemmaEncodeFailure || error instanceof Error) message = String(error.message);
    } catch {
      // Something thrown that cannot be read: the generic message.
    }
    return { ok: false, error: message };
  }
}

/**
 * Encodes a mapping in Gemma 4's native argument syntax, byte for byte as its chat template renders a call's
 * arguments: keys bare and sorted as Jinja's `dictsort` sorts them, strings between `<|"|>` tokens, `true`/`false`,
 * `None`, numbers as Python prints them. {@link parseGemmaArguments} reads it back (keys must not hold `:`, `,`,
 * brackets or `<|`, and strings must not hold `<|"|>`: the syntax has no escapes).
 *
 * Never throws: a mapping that cannot be written (nested deeper than 1000, cyclic, a getter that throws) gives the
 * raw sentinel of the reason, as core's `encodeArguments` does: `{_raw_arguments:<|"|>[arguments could not be
 * encoded: …]<|"|>}`. {@link safeEncodeGemmaArguments} reports it instead. Anything but a plain object encodes as `{}`.
 *
 * @example
 * encodeGemmaArguments({ days: 3, city: "Paris" }); // '{city:<|"|>Paris<|"|>,days:3}'
 */
export function encodeGemmaArguments(mapping: ArgumentsMapping): string {
  return encodeWith(mapping, QUOTE_TOKEN);
}

function encodeWith(mapping: ArgumentsMapping, quote: string): string {
  const result = safeEncodeWith(mapping, quote);
  if (result.ok) return result.text;
  return `{_raw_arguments:${quote}[arguments could not be encoded: ${result.error}]${quote}}`;
}

/**
 * A whole native call, as the Gemma 4 template renders an assistant's tool call.
 *
 * @example
 * encodeGemmaToolCall({ name: "get_weather", arguments: { city: "Paris" } });
 * // '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>'
 */
export function encodeGemmaToolCall(call: { name: string; arguments: ArgumentsMapping }): string {
  return writeGemmaStyleCall({ call, tokens: GEMMA4_TOKENS });
}

/** A whole call in a Gemma-style syntax: Gemma 4's tokens, or FunctionGemma's (`<escape>` as the quote). */
export function writeGemmaStyleCall(options: {
  call: { name: string; arguments: ArgumentsMapping };
  tokens: GemmaTokens;
}): string {
  const { call, tokens } = options;
  let name: unknown;
  let args: unknown;
  try {
    name = call.name;
    args = call.arguments;
  } catch {
    // A call that cannot be read has no name and no arguments.
  }
  return `${tokens.callOpen}call:${typeof name === "string" ? name : ""}${encodeWith(args as ArgumentsMapping, tokens.quote)}${tokens.callClose}`;
}
