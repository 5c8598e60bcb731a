import { type ArgumentsMapping, isPlainObject, JsonNumber, pythonFloatRepr } from "@toolcall/core";
import { QUOTE_TOKEN, TOOL_CALL_CLOSE, TOOL_CALL_OPEN } from "./tokens.js";

/** Jinja's `dictsort` (case-insensitive by default): keys compared lower-cased, ties kept in mapping order. */
function dictsort(mapping: ArgumentsMapping): string[] {
  return Object.keys(mapping)
    .map((key, index) => ({ key, lower: key.toLowerCase(), index }))
    .sort((a, b) => (a.lower < b.lower ? -1 : a.lower > b.lower ? 1 : a.index - b.index))
    .map((entry) => entry.key);
}

/** What `{{ value }}` prints in Python's Jinja for a number. */
function pythonNumber(value: number | bigint | JsonNumber): string {
  if (typeof value === "bigint") return value.toString();
  if (JsonNumber.isInstance(value))
    return value.isInteger ? BigInt(value.text).toString() : pythonFloatRepr(Number(value.text));
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value === 0 ? 0 : value);
  return pythonFloatRepr(value);
}

function formatValue(value: unknown, depth: number): string {
  if (depth > 1000) throw new RangeError("nesting deeper than 1000");
  if (typeof value === "string") return `${QUOTE_TOKEN}${value}${QUOTE_TOKEN}`;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value === null || value === undefined) return "None";
  if (typeof value === "number" || typeof value === "bigint" || JsonNumber.isInstance(value))
    return pythonNumber(value);
  if (Array.isArray(value)) return `[${value.map((item) => formatValue(item, depth + 1)).join(",")}]`;
  if (isPlainObject(value)) return formatMapping(value, depth + 1);
  return `${QUOTE_TOKEN}${String(value)}${QUOTE_TOKEN}`;
}

function formatMapping(mapping: ArgumentsMapping, depth: number): string {
  return `{${dictsort(mapping)
    .map((key) => `${key}:${formatValue(mapping[key], depth)}`)
    .join(",")}}`;
}

/**
 * Encodes a mapping in Gemma 4's native argument syntax, byte for byte as its chat template renders a call's
 * arguments: keys bare and sorted as Jinja's `dictsort` sorts them, strings between `<|"|>` tokens, `true`/`false`,
 * `None`, numbers as Python prints them. {@link parseGemmaArguments} reads it back (keys must not hold `:`, `,`,
 * brackets or `<|`, and strings must not hold `<|"|>`: the syntax has no escapes).
 *
 * @example
 * encodeGemmaArguments({ days: 3, city: "Paris" }); // '{city:<|"|>Paris<|"|>,days:3}'
 */
export function encodeGemmaArguments(mapping: ArgumentsMapping): string {
  return formatMapping(mapping, 1);
}

/**
 * A whole native call, as the Gemma 4 template renders an assistant's tool call.
 *
 * @example
 * encodeGemmaToolCall({ name: "get_weather", arguments: { city: "Paris" } });
 * // '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>'
 */
export function encodeGemmaToolCall(call: { name: string; arguments: ArgumentsMapping }): string {
  return `${TOOL_CALL_OPEN}call:${call.name}${encodeGemmaArguments(call.arguments)}${TOOL_CALL_CLOSE}`;
}
