import { compareCodePoints } from "@toolcall/core";
import { fail } from "./template-error.js";
import { isTuple, normalizeInt, PyFloat, tuple, typeName, Undefined } from "./values.js";

/** Python's operators over engine values, with Python's results and error messages. */

type Int = number | bigint;

function isInt(value: unknown): value is Int | boolean {
  return typeof value === "number" || typeof value === "bigint" || typeof value === "boolean";
}

function isNumeric(value: unknown): boolean {
  return isInt(value) || value instanceof PyFloat;
}

function asInt(value: Int | boolean): Int {
  return typeof value === "boolean" ? (value ? 1 : 0) : value;
}

/** A numeric value as a JavaScript number (floats and ints). */
export function toNumber(value: unknown): number {
  if (typeof value === "number") return value;
  if (value instanceof PyFloat) return value.value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  return Number.NaN;
}

function big(value: Int): bigint {
  return typeof value === "bigint" ? value : BigInt(value);
}

function intOp(a: Int, b: Int, op: "+" | "-" | "*"): Int {
  if (typeof a === "number" && typeof b === "number") {
    const r = op === "+" ? a + b : op === "-" ? a - b : a * b;
    if (Number.isSafeInteger(r)) return r === 0 ? 0 : r;
  }
  const x = big(a);
  const y = big(b);
  return normalizeInt(op === "+" ? x + y : op === "-" ? x - y : x * y);
}

function unsupported(op: string, a: unknown, b: unknown): never {
  return fail("TypeError", `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

function checkUndefined(a: unknown, b: unknown): void {
  if (a instanceof Undefined) a.fail();
  if (b instanceof Undefined) b.fail();
}

/** `a + b`. */
export function add(a: unknown, b: unknown): unknown {
  if (typeof a === "string" && typeof b === "string") return a + b;
  if (typeof a === "number" && typeof b === "number") {
    const r = a + b;
    if (Number.isSafeInteger(r)) return r;
  }
  checkUndefined(a, b);
  if (isInt(a) && isInt(b)) return intOp(asInt(a), asInt(b), "+");
  if (isNumeric(a) && isNumeric(b)) return new PyFloat(toNumber(a) + toNumber(b));
  if (Array.isArray(a) && Array.isArray(b) && isTuple(a) === isTuple(b)) {
    const joined = a.concat(b);
    return isTuple(a) ? tuple(joined) : joined;
  }
  if (typeof a === "string") fail("TypeError", `can only concatenate str (not "${typeName(b)}") to str`);
  if (Array.isArray(a)) {
    const kind = typeName(a);
    fail("TypeError", `can only concatenate ${kind} (not "${typeName(b)}") to ${kind}`);
  }
  return unsupported("+", a, b);
}

/** `a - b`. */
export function sub(a: unknown, b: unknown): unknown {
  checkUndefined(a, b);
  if (isInt(a) && isInt(b)) return intOp(asInt(a), asInt(b), "-");
  if (isNumeric(a) && isNumeric(b)) return new PyFloat(toNumber(a) - toNumber(b));
  return unsupported("-", a, b);
}

function repeat(sequence: string | unknown[], times: Int | boolean): unknown {
  const n = Number(asInt(times));
  if (typeof sequence === "string") return n > 0 ? sequence.repeat(n) : "";
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) out.push(...sequence);
  return isTuple(sequence) ? tuple(out) : out;
}

/** `a * b`. */
export function mul(a: unknown, b: unknown): unknown {
  checkUndefined(a, b);
  if (isInt(a) && isInt(b)) return intOp(asInt(a), asInt(b), "*");
  if (isNumeric(a) && isNumeric(b)) return new PyFloat(toNumber(a) * toNumber(b));
  if ((typeof a === "string" || Array.isArray(a)) && isInt(b)) return repeat(a, b);
  if ((typeof b === "string" || Array.isArray(b)) && isInt(a)) return repeat(b, a);
  if (typeof a === "string" || Array.isArray(a) || typeof b === "string" || Array.isArray(b)) {
    const other = typeof a === "string" || Array.isArray(a) ? b : a;
    fail("TypeError", `can't multiply sequence by non-int of type '${typeName(other)}'`);
  }
  return unsupported("*", a, b);
}

/** `a / b` (always a float). */
export function truediv(a: unknown, b: unknown): unknown {
  checkUndefined(a, b);
  if (!isNumeric(a) || !isNumeric(b)) return unsupported("/", a, b);
  const y = toNumber(b);
  if (y === 0)
    fail("ZeroDivisionError", isInt(a) && isInt(b) ? "division by zero" : "float division by zero");
  return new PyFloat(toNumber(a) / y);
}

/** `a // b`. */
export function floordiv(a: unknown, b: unknown): unknown {
  checkUndefined(a, b);
  if (isInt(a) && isInt(b)) {
    const x = big(asInt(a));
    const y = big(asInt(b));
    if (y === 0n) fail("ZeroDivisionError", "integer division or modulo by zero");
    let q = x / y;
    if (x % y !== 0n && x < 0n !== y < 0n) q -= 1n;
    return normalizeInt(q);
  }
  if (!isNumeric(a) || !isNumeric(b)) return unsupported("//", a, b);
  const y = toNumber(b);
  if (y === 0) fail("ZeroDivisionError", "float floor division by zero");
  return new PyFloat(Math.floor(toNumber(a) / y));
}

/** `a % b` (numbers only: no string formatting). */
export function mod(a: unknown, b: unknown): unknown {
  checkUndefined(a, b);
  if (typeof a === "number" && typeof b === "number" && b !== 0) {
    const r = a % b;
    return r !== 0 && r < 0 !== b < 0 ? r + b : r === 0 ? 0 : r;
  }
  if (isInt(a) && isInt(b)) {
    const x = big(asInt(a));
    const y = big(asInt(b));
    if (y === 0n) fail("ZeroDivisionError", "integer modulo by zero");
    let r = x % y;
    if (r !== 0n && r < 0n !== y < 0n) r += y;
    return normalizeInt(r);
  }
  if (isNumeric(a) && isNumeric(b)) {
    const y = toNumber(b);
    if (y === 0) fail("ZeroDivisionError", "float modulo");
    const r = toNumber(a) % y;
    return new PyFloat(r !== 0 && r < 0 !== y < 0 ? r + y : r);
  }
  if (typeof a === "string") fail("TypeError", "string formatting with % is not supported");
  return unsupported("%", a, b);
}

/** `a ** b`. */
export function pow(a: unknown, b: unknown): unknown {
  checkUndefined(a, b);
  if (isInt(a) && isInt(b)) {
    const y = asInt(b);
    if (y >= 0) return normalizeInt(big(asInt(a)) ** big(y));
    return new PyFloat(toNumber(a) ** toNumber(b));
  }
  if (isNumeric(a) && isNumeric(b)) return new PyFloat(toNumber(a) ** toNumber(b));
  return unsupported("** or pow()", a, b);
}

/** Unary `-a`. */
export function neg(a: unknown): unknown {
  if (a instanceof Undefined) a.fail();
  if (typeof a === "number") return a === 0 ? 0 : -a;
  if (typeof a === "bigint") return normalizeInt(-a);
  if (typeof a === "boolean") return a ? -1 : 0;
  if (a instanceof PyFloat) return new PyFloat(-a.value);
  return fail("TypeError", `bad operand type for unary -: '${typeName(a)}'`);
}

/** Unary `+a`. */
export function pos(a: unknown): unknown {
  if (a instanceof Undefined) a.fail();
  if (typeof a === "boolean") return a ? 1 : 0;
  if (isNumeric(a)) return a;
  return fail("TypeError", `bad operand type for unary +: '${typeName(a)}'`);
}

/** Python `==`. */
export function eq(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "string" || typeof b === "string") return false;
  if (isNumeric(a) && isNumeric(b)) {
    if (typeof a === "bigint" || typeof b === "bigint") {
      if (a instanceof PyFloat || b instanceof PyFloat) return toNumber(a) === toNumber(b);
      return big(asInt(a as Int)) === big(asInt(b as Int));
    }
    return toNumber(a) === toNumber(b);
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (isTuple(a) !== isTuple(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!eq(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) {
      if (!b.has(k) || !eq(v, b.get(k))) return false;
    }
    return true;
  }
  if (a instanceof Undefined && b instanceof Undefined) return true;
  return false;
}

/** Compares strings by code point, as Python does: core's comparison, the one `sortKeys` uses. */
export const compareStrings = compareCodePoints;

/** Three-way ordering for `<`, `sort`, `min`, `max`; raises Python's TypeError for unordered types. */
export function order(a: unknown, b: unknown, op = "<"): number {
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b);
  checkUndefined(a, b);
  if (isNumeric(a) && isNumeric(b)) {
    if ((typeof a === "bigint" || typeof b === "bigint") && isInt(a) && isInt(b)) {
      const x = big(asInt(a));
      const y = big(asInt(b));
      return x < y ? -1 : x > y ? 1 : 0;
    }
    const x = toNumber(a);
    const y = toNumber(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (Array.isArray(a) && Array.isArray(b) && isTuple(a) === isTuple(b)) {
    const length = Math.min(a.length, b.length);
    for (let i = 0; i < length; i++) {
      if (!eq(a[i], b[i])) return order(a[i], b[i], op);
    }
    return a.length - b.length;
  }
  return fail(
    "TypeError",
    `'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`,
  );
}

/** Python `item in container`. */
export function contains(container: unknown, item: unknown): boolean {
  if (typeof container === "string") {
    if (typeof item !== "string") {
      if (item instanceof Undefined) item.fail();
      fail("TypeError", `'in <string>' requires string as left operand, not ${typeName(item)}`);
    }
    return container.includes(item);
  }
  if (Array.isArray(container)) {
    for (const x of container) if (eq(x, item)) return true;
    return false;
  }
  if (container instanceof Map) {
    if (Array.isArray(item) && !isTuple(item)) fail("TypeError", "unhashable type: 'list'");
    if (item instanceof Map) fail("TypeError", "unhashable type: 'dict'");
    if (container.has(item)) return true;
    if (typeof item === "string") return false;
    for (const key of container.keys()) if (eq(key, item)) return true;
    return false;
  }
  if (container instanceof Undefined) return false;
  return fail("TypeError", `argument of type '${typeName(container)}' is not iterable`);
}
