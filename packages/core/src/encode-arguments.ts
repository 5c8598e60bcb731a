import { isPlainObject, setOwn } from "./define-property.js";
import { errorMessage } from "./error-message.js";
import type { Result } from "./result.js";
import { type SerializeOptions, serializeJson } from "./serialize-json.js";
import { type ArgumentsMapping, RAW_ARGUMENTS_KEY } from "./types.js";

/** What to write for a mapping that is only a raw sentinel `{ _raw_arguments: X }`. */
export type RawPolicy = "preserve" | "verbatim" | "empty";

/** How `encodeArguments` writes a mapping: raw-sentinel policy, byte style (compact or Python's), ASCII escaping. */
export interface EncodeOptions {
  /** `preserve` (default): JSON text of the sentinel object. `verbatim`: X itself when it is a string. `empty`: `"{}"`. */
  rawPolicy?: RawPolicy;
  /** `compact` (default): `JSON.stringify` bytes. `python`: `json.dumps(x, ensure_ascii=False)` bytes. */
  style?: "compact" | "python";
  /** Escape non-ASCII as `\uXXXX` (Python's `ensure_ascii`). */
  ensureAscii?: boolean;
  /** Sort keys by code point (Python's `sort_keys`). */
  sortKeys?: boolean;
}

/** True when `value` is a mapping whose only key is `_raw_arguments`. */
export function isRawSentinel(value: unknown): value is { _raw_arguments: unknown } {
  if (!isPlainObject(value)) return false;
  try {
    const keys = Object.keys(value);
    return keys.length === 1 && keys[0] === RAW_ARGUMENTS_KEY;
  } catch {
    // A proxy whose keys cannot be listed is no sentinel.
    return false;
  }
}

/** The wire text (`value`), or why the value cannot be JSON. */
export type EncodeResult = Result<string>;

/**
 * Encodes arguments to wire text, reporting a value that cannot be JSON (a cycle, nesting too deep, a throwing
 * getter) instead of throwing.
 *
 * @example
 * safeEncodeArguments({ a: 1 }); // { success: true, value: '{"a":1}' }
 */
export function safeEncodeArguments(value: unknown, options: EncodeOptions = {}): EncodeResult {
  try {
    return encode(value, options);
  } catch (error) {
    // A getter or proxy trap that throws where the value is looked at before serializing.
    return { success: false, error: errorMessage(error) };
  }
}

function encode(value: unknown, options: EncodeOptions): EncodeResult {
  if (typeof value === "string") return { success: true, value: value };
  if (value === undefined || value === null) return { success: true, value: "{}" };
  const serializeOptions: SerializeOptions = {
    style: options.style ?? "compact",
    ensureAscii: options.ensureAscii ?? false,
    sortKeys: options.sortKeys ?? false,
  };
  let mapping: unknown = value;
  if (!isPlainObject(value)) {
    const wrapped: ArgumentsMapping = {};
    setOwn(wrapped, RAW_ARGUMENTS_KEY, value);
    mapping = wrapped;
  }
  if (isRawSentinel(mapping)) {
    const policy = options.rawPolicy ?? "preserve";
    if (policy === "empty") return { success: true, value: "{}" };
    if (policy === "verbatim" && typeof mapping._raw_arguments === "string") {
      return { success: true, value: mapping._raw_arguments };
    }
  }
  return serializeJson(mapping, serializeOptions);
}

/**
 * Encodes arguments to wire text (RULES.md R2). A string is returned unchanged (the wire bytes are the contract),
 * `null`/`undefined` give `"{}"`, a mapping gives compact JSON (or Python's `json.dumps` bytes with
 * `style: "python"`), and a raw sentinel follows `rawPolicy`. Never throws: a value that cannot be JSON gives the
 * raw sentinel of the reason (see {@link encodeArgumentsOrThrow}).
 *
 * @example
 * encodeArguments({ city: "Paris" }); // '{"city":"Paris"}'
 * encodeArguments({ city: "Paris" }, { style: "python" }); // '{"city": "Paris"}'
 * encodeArguments({ _raw_arguments: "{oops" }); // '{"_raw_arguments":"{oops"}'
 */
export function encodeArguments(value: unknown, options: EncodeOptions = {}): string {
  const result = safeEncodeArguments(value, options);
  if (result.success) return result.value;
  return JSON.stringify({ [RAW_ARGUMENTS_KEY]: `[arguments could not be encoded: ${result.error}]` });
}

/** Thrown by {@link encodeArgumentsOrThrow} for a value that cannot be JSON. */
const encodeErrorMarker = Symbol.for("@toolcall/core/ArgumentsEncodeError");

/** The error `encodeArgumentsOrThrow` throws for a value that cannot be JSON (cycles, BigInt, functions); recognized across copies of the package by a registered symbol. */
export class ArgumentsEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ArgumentsEncodeError";
    Object.defineProperty(this, encodeErrorMarker, { value: true });
  }

  /** True for errors made by any copy of this class (safe across duplicated installs). */
  static isInstance(error: unknown): error is ArgumentsEncodeError {
    return typeof error === "object" && error !== null && encodeErrorMarker in error;
  }
}

/**
 * Like {@link encodeArguments}, but throws {@link ArgumentsEncodeError} for a value that cannot be JSON.
 *
 * @example
 * const cyclic: Record<string, unknown> = {};
 * cyclic.self = cyclic;
 * encodeArgumentsOrThrow(cyclic); // throws ArgumentsEncodeError: circular structure
 */
export function encodeArgumentsOrThrow(value: unknown, options: EncodeOptions = {}): string {
  const result = safeEncodeArguments(value, options);
  if (result.success) return result.value;
  throw new ArgumentsEncodeError(result.error);
}
