import { contains, eq, order } from "./comparisons.js";
import { floatPow } from "./float-pow.js";
import { escapeText, isStr, Markup, strText } from "./markup.js";
import { PyBytes } from "./py-bytes.js";
import { asInt, big, type Int, isInt, isNumeric, toNumber } from "./python-numbers.js";
import { pyStr } from "./python-repr.js";
import { isTuple, normalizeInt, PyFloat, tuple, typeName, Undefined } from "./python-values.js";
import { checkLength } from "./render-budget.js";
import { percentFormat } from "./strings/percent-format.js";
import { fail } from "./template-error.js";

/** Python's operators over engine values, with Python's results and error messages. */

/** An int operand converted for float arithmetic: Python refuses ints beyond the float range. */
function floatOperand(value: unknown): number {
  const x = toNumber(value);
  if (typeof value === "bigint" && !Number.isFinite(x))
    fail("OverflowError", "int too large to convert to float");
  return x;
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

/** markupsafe's `escape()` as text: a Markup stays as it is, anything else is escaped. */
function escapedText(value: unknown): string {
  return value instanceof Markup ? value.text : escapeText(pyStr(value));
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
  if (isNumeric(a) && isNumeric(b)) return new PyFloat(floatOperand(a) + floatOperand(b));
  if (a instanceof Markup && isStr(b)) return new Markup(a.text + escapedText(b));
  if (b instanceof Markup && isStr(a)) return new Markup(escapedText(a) + b.text);
  if (a instanceof PyBytes && b instanceof PyBytes) {
    const out = new Uint8Array(a.data.length + b.data.length);
    out.set(a.data);
    out.set(b.data, a.data.length);
    return new PyBytes(out);
  }
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
  if (isNumeric(a) && isNumeric(b)) return new PyFloat(floatOperand(a) - floatOperand(b));
  return unsupported("-", a, b);
}

const SSIZE_MAX = 2n ** 63n - 1n;

function repeat(sequence: string | Markup | unknown[], times: Int | boolean): unknown {
  const count = asInt(times);
  if (typeof count === "bigint" && (count > SSIZE_MAX || count < -SSIZE_MAX - 1n))
    fail("OverflowError", "cannot fit 'int' into an index-sized integer");
  const n = Number(count);
  if (isStr(sequence)) {
    const text = strText(sequence);
    if (n > 2 ** 32 && text.length > 0 && BigInt(Array.from(text).length) * big(count) > SSIZE_MAX)
      fail("OverflowError", "repeated string is too long");
    if (n > 0) checkLength(text.length * n);
    const out = n > 0 && text.length > 0 ? text.repeat(n) : "";
    return sequence instanceof Markup ? new Markup(out) : out;
  }
  if (n > 0) checkLength(sequence.length * n);
  const out: unknown[] = [];
  if (sequence.length === 0) return isTuple(sequence) ? tuple(out) : out;
  for (let i = 0; i < n; i++) out.push(...sequence);
  return isTuple(sequence) ? tuple(out) : out;
}

/** `a * b`. */
export function mul(a: unknown, b: unknown): unknown {
  // Markup's `__mul__` runs before Undefined's `__rmul__`: str's repeat asks the undefined for an index.
  if (a instanceof Markup && b instanceof Undefined)
    fail("TypeError", "'Undefined' object cannot be interpreted as an integer");
  checkUndefined(a, b);
  if (isInt(a) && isInt(b)) return intOp(asInt(a), asInt(b), "*");
  if (isNumeric(a) && isNumeric(b)) return new PyFloat(floatOperand(a) * floatOperand(b));
  // A Markup's own `__mul__`/`__rmul__` take the other operand as the count.
  if (a instanceof Markup && !isInt(b))
    fail("TypeError", `'${typeName(b)}' object cannot be interpreted as an integer`);
  if (b instanceof Markup && !isInt(a))
    fail("TypeError", `'${typeName(a)}' object cannot be interpreted as an integer`);
  const aSeq = isStr(a) || Array.isArray(a);
  const bSeq = isStr(b) || Array.isArray(b);
  if (aSeq && isInt(b)) return repeat(a as string | unknown[], b);
  if (bSeq && isInt(a)) return repeat(b as string | unknown[], a);
  if (aSeq || bSeq) {
    const other = aSeq ? b : a;
    fail("TypeError", `can't multiply sequence by non-int of type '${typeName(other)}'`);
  }
  return unsupported("*", a, b);
}

/** Python's correctly rounded `int / int`. */
function intTrueDivide(x: bigint, y: bigint): number {
  const limit = 2n ** 53n;
  if (x < limit && x > -limit && y < limit && y > -limit) return Number(x) / Number(y);
  const negative = x < 0n !== y < 0n;
  let n = x < 0n ? -x : x;
  const d = y < 0n ? -y : y;
  // Scale so the quotient has at least 66 bits, keep a sticky bit for the remainder, let Number() round once.
  const shift = Math.max(0, 66 - (n.toString(2).length - d.toString(2).length));
  n <<= BigInt(shift);
  let q = n / d;
  q = (q << 1n) | (n % d === 0n ? 0n : 1n);
  const magnitude = Number(q) / 2 ** (shift + 1);
  if (!Number.isFinite(magnitude)) fail("OverflowError", "integer division result too large for a float");
  return negative ? -magnitude : magnitude;
}

/** `a / b` (always a float). */
export function truediv(a: unknown, b: unknown): unknown {
  checkUndefined(a, b);
  if (!isNumeric(a) || !isNumeric(b)) return unsupported("/", a, b);
  if (isInt(a) && isInt(b)) {
    const y = big(asInt(b));
    if (y === 0n) fail("ZeroDivisionError", "division by zero");
    return new PyFloat(intTrueDivide(big(asInt(a)), y));
  }
  const y = floatOperand(b);
  if (y === 0) fail("ZeroDivisionError", "float division by zero");
  return new PyFloat(floatOperand(a) / y);
}

/** CPython's `float_divmod`: the floor quotient and the remainder with the divisor's sign. */
function floatDivmod(vx: number, wx: number): [number, number] {
  let mod = vx % wx;
  let div = (vx - mod) / wx;
  if (mod !== 0) {
    if (wx < 0 !== mod < 0) {
      mod += wx;
      div -= 1;
    }
  } else mod = wx < 0 || Object.is(wx, -0) ? -0 : 0;
  let floordiv: number;
  if (div !== 0) {
    floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1;
  } else floordiv = vx / wx < 0 || Object.is(vx / wx, -0) ? -0 : 0;
  return [floordiv, mod];
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
  const y = floatOperand(b);
  if (y === 0) fail("ZeroDivisionError", "float floor division by zero");
  return new PyFloat(floatDivmod(floatOperand(a), y)[0]);
}

/** `a % b`: the remainder for numbers, `%` formatting for a string. */
export function mod(a: unknown, b: unknown): unknown {
  if (typeof a === "number" && typeof b === "number" && b !== 0) {
    const r = a % b;
    return r !== 0 && r < 0 !== b < 0 ? r + b : r === 0 ? 0 : r;
  }
  if (isStr(a)) return percentFormat(a, b);
  checkUndefined(a, b);
  if (isInt(a) && isInt(b)) {
    const x = big(asInt(a));
    const y = big(asInt(b));
    if (y === 0n) fail("ZeroDivisionError", "integer modulo by zero");
    let r = x % y;
    if (r !== 0n && r < 0n !== y < 0n) r += y;
    return normalizeInt(r);
  }
  if (isNumeric(a) && isNumeric(b)) {
    const y = floatOperand(b);
    if (y === 0) fail("ZeroDivisionError", "float modulo");
    return new PyFloat(floatDivmod(floatOperand(a), y)[1]);
  }
  return unsupported("%", a, b);
}

/** `a ** b`. */
export function pow(a: unknown, b: unknown): unknown {
  checkUndefined(a, b);
  if (isInt(a) && isInt(b)) {
    const x = big(asInt(a));
    const y = big(asInt(b));
    if (y >= 0n) {
      const bits = x === 0n || x === 1n || x === -1n ? 1 : x.toString(2).length * Number(y);
      if (bits > 2 ** 26) fail("MemoryError", "");
      return normalizeInt(x ** y);
    }
    if (x === 0n) fail("ZeroDivisionError", "0.0 cannot be raised to a negative power");
    const base = floatOperand(a);
    const exponent = floatOperand(b);
    const r = floatPow(base, exponent) ?? base ** exponent;
    if (!Number.isFinite(r)) fail("OverflowError", "(34, 'Numerical result out of range')");
    return new PyFloat(r);
  }
  if (isNumeric(a) && isNumeric(b)) {
    const x = floatOperand(a);
    const y = floatOperand(b);
    if (x === 0 && y < 0) fail("ZeroDivisionError", "0.0 cannot be raised to a negative power");
    // C's pow, which Python follows: 1 to any power, and -1 to an infinite one, is 1.
    if (x === 1 || (x === -1 && (y === Number.POSITIVE_INFINITY || y === Number.NEGATIVE_INFINITY)))
      return new PyFloat(1);
    const r = floatPow(x, y) ?? x ** y;
    if (Number.isNaN(r) && !Number.isNaN(x) && !Number.isNaN(y))
      fail("ValueError", "complex numbers are not supported: a negative number to a fractional power");
    if (!Number.isFinite(r) && Number.isFinite(x) && Number.isFinite(y))
      fail("OverflowError", "(34, 'Numerical result out of range')");
    return new PyFloat(r);
  }
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

export { compareStrings, contains, eq, order } from "./comparisons.js";
export { toNumber } from "./python-numbers.js";

/** The binary arithmetic operators by their token. */
export const BINARY_OPERATORS: Record<string, (a: unknown, b: unknown) => unknown> = {
  "+": add,
  "-": sub,
  "*": mul,
  "/": truediv,
  "//": floordiv,
  "%": mod,
  "**": pow,
};

/** A comparison (`==`, `<`, `in`, `notin`, …) by its token. */
export function compareOp(op: string, left: unknown, right: unknown): boolean {
  switch (op) {
    case "==":
      return eq(left, right);
    case "!=":
      return !eq(left, right);
    case "<":
      return order(left, right, op) < 0;
    case "<=":
      return order(left, right, op) <= 0;
    case ">":
      return order(left, right, op) > 0;
    case ">=":
      return order(left, right, op) >= 0;
    case "in":
      return contains(right, left);
    case "notin":
      return !contains(right, left);
    default:
      return fail("TemplateSyntaxError", `unknown comparison ${op}`);
  }
}
