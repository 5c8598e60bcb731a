import { errorMessage } from "./error-message.js";
import { JsonNumber } from "./json-number.js";
import { DEFAULT_MAX_DEPTH } from "./parse-json.js";
import { pythonFloatRepr } from "./python-float.js";
import type { Result } from "./result.js";

/** How `serializeJson` writes a value: compact or Python's `json.dumps` bytes, ASCII escaping, sorted keys. */
export interface SerializeOptions {
  /** `compact`: `JSON.stringify` bytes. `python`: `json.dumps` bytes (`", "`, `": "`). */
  style?: "compact" | "python";
  /** Escape every non-ASCII character as `\uXXXX` (Python's `ensure_ascii=True`). */
  ensureAscii?: boolean;
  /** Sort object keys by code point (Python's `sort_keys=True`). */
  sortKeys?: boolean;
  /** Containers nested deeper than this cannot be serialized. */
  maxDepth?: number;
  /**
   * The longest text to write (default {@link MAX_JSON_TEXT_LENGTH}, the longest string the engine can hold); a
   * value whose text would be longer is an error, found before the text is built (an array of length 2**32 - 1 is
   * refused at once, not walked).
   */
  maxLength?: number;
}

/**
 * The longest JSON text `serializeJson` writes by default: the longest string V8 can hold on a 64-bit machine
 * (2**29 - 24 characters). `JSON.stringify` throws a RangeError past it; this serializer says so in its result.
 *
 * @example
 * const a: unknown[] = [];
 * a.length = 2 ** 32 - 1;
 * serializeJson({ a }); // { success: false, error: "the JSON text would exceed 536870888 characters" }
 */
export const MAX_JSON_TEXT_LENGTH = 2 ** 29 - 24;

/** Parts of an array joined at a time: a huge array never needs one list as long as itself. */
const CHUNK = 4096;

/** The JSON text (`value`), or why the value has none. */
export type SerializeResult = Result<string>;

// Python's ensure_ascii escapes everything outside space..tilde that JSON does not already escape, DEL included.
const NON_ASCII = /[\u007f-\uffff]/g;

function escapeNonAscii(quoted: string): string {
  return quoted.replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Compares two strings by Unicode code point, as Python compares `str` (JavaScript's `<` compares UTF-16 code
 * units, which orders characters above U+FFFF before U+E000–U+FFFF).
 *
 * @example
 * ["\uFF01", "😀"].sort(compareCodePoints); // ["！", "😀"]
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      // A surrogate stands for a code point above every BMP character.
      if (xs !== ys) return xs ? 1 : -1;
      return x - y;
    }
  }
  return a.length - b.length;
}

/**
 * A JavaScript number as Python would print what it becomes on the wire: `JSON.stringify` writes integral numbers
 * below 1e21 as digits, which `json.loads` reads as an `int`; anything else is a `float`.
 */
function numberText(value: number, python: boolean): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  if (!python) return JSON.stringify(value);
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value === 0 ? 0 : value);
  return pythonFloatRepr(value);
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A lossless number's text: as written (compact), or as Python prints what `json.loads` makes of it. A float beyond
 * the double range (`1e400`) stays as written in both styles: Python would print `Infinity`, which is not JSON,
 * and the output is always JSON. Text that is not a JSON number (a `JsonNumber` made by hand) is written as the
 * number it reads as, or `null`, as a plain number would be.
 */
function jsonNumberText(value: JsonNumber, python: boolean): string {
  const text: unknown = value.text;
  if (typeof text !== "string" || !JSON_NUMBER.test(text)) return numberText(Number(text), python) ?? "null";
  if (!python) return text;
  // A JSON integer is already as Python prints the int it reads (no sign, no leading zeros) but for "-0". No BigInt:
  // parsing and printing one is superlinear in its digits.
  if (value.isInteger) return text === "-0" ? "0" : text;
  const number = Number(text);
  return Number.isFinite(number) ? pythonFloatRepr(number) : text;
}

/**
 * Serializes a JSON-like value without throwing: cycles and nesting beyond `maxDepth` are reported as errors.
 * Follows `JSON.stringify` for what JSON cannot hold (`undefined` and functions are left out of objects and become
 * `null` in arrays, non-finite numbers become `null`, `toJSON` is honoured).
 */
export function serializeJson(root: unknown, options: SerializeOptions = {}): SerializeResult {
  const python = options.style === "python";
  const ensureAscii = options.ensureAscii ?? false;
  const sortKeys = options.sortKeys ?? false;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxLength = options.maxLength ?? MAX_JSON_TEXT_LENGTH;
  const itemSeparator = python ? ", " : ",";
  const keySeparator = python ? ": " : ":";
  const ancestors = new Set<object>();
  let failure: string | undefined;
  // Characters of the final text written so far: each leaf and each separator counts once.
  let written = 0;
  const tooLong = (): undefined => {
    failure = `the JSON text would exceed ${maxLength} characters`;
    return undefined;
  };
  const count = (text: string): string | undefined => {
    written += text.length;
    return written > maxLength ? tooLong() : text;
  };
  const quote = (s: string) => (ensureAscii ? escapeNonAscii(JSON.stringify(s)) : JSON.stringify(s));

  const write = (value: unknown, depth: number, key: string): string | undefined => {
    if (
      typeof value === "object" &&
      value !== null &&
      typeof (value as { toJSON?: unknown }).toJSON === "function"
    ) {
      if (!JsonNumber.isInstance(value)) {
        try {
          value = (value as { toJSON: (key: string) => unknown }).toJSON(key);
        } catch (error) {
          failure = `toJSON threw: ${errorMessage(error)}`;
          return undefined;
        }
      }
    }
    switch (typeof value) {
      case "string":
        // The quoted text is at least as long as the string: a string too long is refused before it is quoted.
        if (written + value.length + 2 > maxLength) return tooLong();
        return count(quote(value));
      case "number":
        return count(numberText(value, python) ?? "null");
      case "boolean":
        return count(value ? "true" : "false");
      case "bigint":
        return count(value.toString());
      case "undefined":
      case "function":
      case "symbol":
        return undefined;
      default:
        break;
    }
    if (typeof value !== "object" || value === null) return count("null");
    if (JsonNumber.isInstance(value)) return count(jsonNumberText(value, python));
    if (depth >= maxDepth) {
      failure = `nesting deeper than ${maxDepth}`;
      return undefined;
    }
    if (ancestors.has(value)) {
      failure = "circular structure";
      return undefined;
    }
    ancestors.add(value);
    let out: string;
    if (Array.isArray(value)) {
      const length = value.length;
      // Brackets, and at least one character and a separator for each item (a hole is `null`).
      if (written + 2 + length + Math.max(0, length - 1) * itemSeparator.length > maxLength) return tooLong();
      written += 2 + Math.max(0, length - 1) * itemSeparator.length;
      const chunks: string[] = [];
      let parts: string[] = [];
      for (let i = 0; i < length; i++) {
        const part = write(value[i], depth + 1, String(i));
        if (failure !== undefined) return undefined;
        if (part === undefined && count("null") === undefined) return undefined;
        parts.push(part ?? "null");
        if (parts.length === CHUNK) {
          chunks.push(parts.join(itemSeparator));
          parts = [];
        }
      }
      if (parts.length > 0 || chunks.length === 0) chunks.push(parts.join(itemSeparator));
      out = `[${chunks.join(itemSeparator)}]`;
    } else {
      const record = value as Record<string, unknown>;
      let keys = Object.keys(record);
      if (sortKeys) keys = keys.slice().sort(compareCodePoints);
      written += 2;
      const parts: string[] = [];
      for (const k of keys) {
        const part = write(record[k], depth + 1, k);
        if (failure !== undefined) return undefined;
        if (part === undefined) continue;
        const name = count(quote(k));
        if (name === undefined || count(keySeparator) === undefined) return undefined;
        if (parts.length > 0 && count(itemSeparator) === undefined) return undefined;
        parts.push(`${name}${keySeparator}${part}`);
      }
      out = `{${parts.join(itemSeparator)}}`;
    }
    ancestors.delete(value);
    return out;
  };

  let text: string | undefined;
  try {
    text = write(root, 0, "");
  } catch (error) {
    // A stack overflow on a pathological value, or a throwing getter or proxy trap.
    failure = errorMessage(error);
  }
  if (failure !== undefined) return { success: false, error: failure };
  return { success: true, value: text ?? "null" };
}
