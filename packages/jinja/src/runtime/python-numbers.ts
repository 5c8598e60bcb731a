import { PyFloat } from "./python-values.js";
import { fail } from "./template-error.js";

/** Python's numeric tower over engine values: ints are numbers or bigints, bools count as ints, floats are PyFloat. */

export type Int = number | bigint;

export function isInt(value: unknown): value is Int | boolean {
  return typeof value === "number" || typeof value === "bigint" || typeof value === "boolean";
}

export function isNumeric(value: unknown): boolean {
  return isInt(value) || value instanceof PyFloat;
}

export function asInt(value: Int | boolean): Int {
  return typeof value === "boolean" ? (value ? 1 : 0) : value;
}

export function big(value: Int): bigint {
  return typeof value === "bigint" ? value : BigInt(value);
}

/** A numeric value as a JavaScript number (floats and ints). */
export function toNumber(value: unknown): number {
  if (typeof value === "number") return value;
  if (value instanceof PyFloat) return value.value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  return Number.NaN;
}

/** Python's `float()` of an int, bool or float (OverflowError past the float range); undefined for any other value. */
export function realToFloat(value: unknown): number | undefined {
  if (value instanceof PyFloat) return value.value;
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "bigint") {
    const x = Number(value);
    if (!Number.isFinite(x)) fail("OverflowError", "int too large to convert to float");
    return x;
  }
  return undefined;
}
