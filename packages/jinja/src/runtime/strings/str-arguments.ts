import { Markup } from "../markup.js";
import { typeName, Undefined } from "../python-values.js";
import { fail } from "../template-error.js";

/** How Python's builtin `str` methods read their arguments. */

/** Python's whitespace (`str.isspace`). */
export const PY_WHITESPACE =
  "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
export const LEADING_WS = new RegExp(`^[${PY_WHITESPACE}]+`);
export const TRAILING_WS = new RegExp(`[${PY_WHITESPACE}]+$`);
export const WS_RUN = new RegExp(`[${PY_WHITESPACE}]+`);
export const IS_WS = new RegExp(`^[${PY_WHITESPACE}]+$`);
export const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;

/** A call's argument by position, else by keyword, else the fallback (Python's binding of one parameter). */
export function argument(
  args: unknown[],
  kwargs: Map<string, unknown> | null,
  index: number,
  name: string,
  fallback: unknown,
): unknown {
  if (index < args.length) return args[index];
  if (kwargs?.has(name)) return kwargs.get(name);
  return fallback;
}

export function stringArgument(value: unknown, message: string): string {
  if (typeof value === "string") return value;
  if (value instanceof Markup) return value.text;
  if (value instanceof Undefined) value.fail();
  return fail("TypeError", message);
}

/** An `int` argument (`__index__`): numbers, bigints and booleans. */
export function indexArgument(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Undefined) value.fail();
  return fail("TypeError", `'${typeName(value)}' object cannot be interpreted as an integer`);
}

export function sliceArgument(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return indexArgument(value);
  if (value instanceof Undefined) value.fail();
  return fail("TypeError", "slice indices must be integers or None or have an __index__ method");
}
