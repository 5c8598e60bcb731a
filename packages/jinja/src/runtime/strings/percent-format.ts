import { formatExponent, formatFixed, formatGeneral } from "../float-format.js";
import { lateBound } from "../late-bound.js";
import { escapeText, isStr, Markup, strText } from "../markup.js";
import { PyObject } from "../py-object.js";
import { realToFloat } from "../python-numbers.js";
import { pyAscii, pyRepr, pyStr } from "../python-repr.js";
import { PyFloat, typeName, Undefined } from "../python-values.js";
import { checkLength } from "../render-budget.js";
import { fail } from "../template-error.js";
import { isTuple } from "../tuple.js";

/**
 * Python's `%` string formatting (`'%s and %d' % ('a', 3)`, `'%(x)s' % {'x': 1}`, the `format` filter): CPython's
 * rules for tuples, mappings and single values, flags, width, precision, every conversion and its errors. A Markup
 * format escapes what it formats, as markupsafe does.
 */

/** Objects CPython's `PyMapping_Check` accepts among a template's values (anything with `__getitem__`). */
function isMappingLike(value: unknown): boolean {
  return (
    value instanceof Map ||
    (Array.isArray(value) && !isTuple(value)) ||
    value instanceof Undefined ||
    (value instanceof PyObject && value.pyType === "range")
  );
}

/** The code points of `text`, counted without building an array of them. */
function codePointCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

interface Flags {
  left: boolean;
  plus: boolean;
  space: boolean;
  alternate: boolean;
  zero: boolean;
}

function pad(body: string, width: number, flags: Flags, signLength: number, numeric: boolean): string {
  // A string has at least half as many code points as UTF-16 units: no need to count them for a narrow width.
  if (width * 2 <= body.length) return body;
  const length = codePointCount(body);
  if (width <= length) return body;
  const fill = width - length;
  checkLength(width);
  if (flags.left) return body + " ".repeat(fill);
  if (flags.zero && numeric) return body.slice(0, signLength) + "0".repeat(fill) + body.slice(signLength);
  return " ".repeat(fill) + body;
}

function toInteger(value: unknown, conversion: string, lenient: boolean): bigint {
  if (typeof value === "number" || typeof value === "bigint") return BigInt(value);
  if (typeof value === "boolean") return value ? 1n : 0n;
  const indexOnly = conversion === "o" || conversion === "x" || conversion === "X";
  if (value instanceof PyFloat && !indexOnly) {
    if (Number.isNaN(value.value)) fail("ValueError", "cannot convert float NaN to integer");
    if (!Number.isFinite(value.value)) fail("OverflowError", "cannot convert float infinity to integer");
    return BigInt(Math.trunc(value.value));
  }
  if (lenient && isStr(value) && /^\s*[+-]?\d+\s*$/.test(strText(value)))
    return BigInt(strText(value).trim());
  if (value instanceof Undefined && !indexOnly) value.fail();
  if (indexOnly)
    return fail("TypeError", `%${conversion} format: an integer is required, not ${typeName(value)}`);
  return fail("TypeError", `%${conversion} format: a real number is required, not ${typeName(value)}`);
}

function toFloat(value: unknown): number {
  const real = realToFloat(value);
  if (real !== undefined) return real;
  if (value instanceof Undefined) value.fail();
  return fail("TypeError", `must be real number, not ${typeName(value)}`);
}

function formatInteger(value: bigint, conversion: string, flags: Flags, precision: number): [string, number] {
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const base = conversion === "o" ? 8 : conversion === "x" || conversion === "X" ? 16 : 10;
  let digits = magnitude.toString(base);
  if (conversion === "X") digits = digits.toUpperCase();
  if (precision >= 0 && digits.length < precision) checkLength(precision);
  if (precision >= 0 && digits.length < precision) digits = "0".repeat(precision - digits.length) + digits;
  const sign = negative ? "-" : flags.plus ? "+" : flags.space ? " " : "";
  const prefix = flags.alternate && base !== 10 ? `0${conversion === "o" ? "o" : conversion}` : "";
  return [sign + prefix + digits, sign.length + prefix.length];
}

function formatReal(x: number, conversion: string, flags: Flags, precision: number): [string, boolean] {
  const p = precision < 0 ? 6 : precision;
  const upper = conversion === "E" || conversion === "F" || conversion === "G";
  let text: string;
  if (conversion === "e" || conversion === "E") text = formatExponent(x, p, upper, flags.alternate);
  else if (conversion === "f" || conversion === "F") {
    text = formatFixed(x, p, upper);
    if (flags.alternate && p === 0 && Number.isFinite(x)) text += ".";
  } else text = formatGeneral(x, p, upper, flags.alternate);
  if (!text.startsWith("-")) text = (flags.plus ? "+" : flags.space ? " " : "") + text;
  return [text, Number.isFinite(x)];
}

/**
 * `format % args` with Python's semantics.
 *
 * @example
 * percentFormat("%s-%05.1f", tuple(["a", new PyFloat(3.14159)])); // "a-003.1"
 */
export function percentFormat(format: string | Markup, args: unknown): string | Markup {
  const escaping = format instanceof Markup;
  const text = strText(format);
  const isArgTuple = isTuple(args);
  const arglen = isArgTuple ? args.length : -1;
  let argidx = isArgTuple ? 0 : -2;
  const dict = isMappingLike(args) && !isArgTuple && !isStr(args) ? args : null;
  const nextArg = (): unknown => {
    if (argidx < arglen) {
      argidx++;
      return arglen < 0 ? args : (args as unknown[])[argidx - 1];
    }
    return fail("TypeError", "not enough arguments for format string");
  };
  const cps = Array.from(text);
  let out = "";
  let i = 0;
  while (i < cps.length) {
    const c = cps[i] as string;
    if (c !== "%") {
      out += c;
      i++;
      continue;
    }
    i++;
    let keyed: { value: unknown } | null = null;
    if (cps[i] === "(") {
      if (dict === null) fail("TypeError", "format requires a mapping");
      let depth = 1;
      const start = ++i;
      while (i < cps.length && depth > 0) {
        if (cps[i] === "(") depth++;
        else if (cps[i] === ")") depth--;
        i++;
      }
      if (depth > 0) fail("ValueError", "incomplete format key");
      const key = cps.slice(start, i - 1).join("");
      keyed = { value: mappingItem(dict, key) };
    }
    const flags: Flags = { left: false, plus: false, space: false, alternate: false, zero: false };
    for (; i < cps.length; i++) {
      const f = cps[i];
      if (f === "-") flags.left = true;
      else if (f === "+") flags.plus = true;
      else if (f === " ") flags.space = true;
      else if (f === "#") flags.alternate = true;
      else if (f === "0") flags.zero = true;
      else break;
    }
    let width = -1;
    if (cps[i] === "*") {
      const w = nextArg();
      if (typeof w !== "number" && typeof w !== "boolean") fail("TypeError", "* wants int");
      width = Number(w);
      if (width < 0) {
        flags.left = true;
        width = -width;
      }
      i++;
    } else {
      let digits = "";
      while (i < cps.length && /[0-9]/.test(cps[i] as string)) digits += cps[i++];
      if (digits !== "") width = Number(digits);
    }
    let precision = -1;
    if (cps[i] === ".") {
      i++;
      if (cps[i] === "*") {
        const p = nextArg();
        if (typeof p !== "number" && typeof p !== "boolean") fail("TypeError", "* wants int");
        precision = Math.max(0, Number(p));
        i++;
      } else {
        let digits = "";
        while (i < cps.length && /[0-9]/.test(cps[i] as string)) digits += cps[i++];
        precision = digits === "" ? 0 : Number(digits);
      }
    }
    while (cps[i] === "h" || cps[i] === "l" || cps[i] === "L") i++;
    if (i >= cps.length) fail("ValueError", "incomplete format");
    const conversion = cps[i] as string;
    const index = i;
    i++;
    if (conversion === "%") {
      out += "%";
      continue;
    }
    const value = keyed === null ? nextArg() : keyed.value;
    out += convertOne(value, conversion, flags, width, precision, escaping, index);
  }
  if (argidx < arglen && dict === null)
    fail("TypeError", "not all arguments converted during string formatting");
  return escaping ? new Markup(out) : out;
}

function mappingItem(dict: unknown, key: string): unknown {
  if (dict instanceof Map) {
    const value = dict.get(key);
    if (value === undefined && !dict.has(key)) fail("KeyError", pyRepr(key));
    return value;
  }
  if (dict instanceof Undefined) return dict.fail();
  if (Array.isArray(dict)) return fail("TypeError", "list indices must be integers or slices, not str");
  return lateBound.getItem(dict, key);
}

function convertOne(
  value: unknown,
  conversion: string,
  flags: Flags,
  width: number,
  precision: number,
  escaping: boolean,
  index: number,
): string {
  switch (conversion) {
    case "s":
    case "r":
    case "a": {
      let body = conversion === "s" ? pyStr(value) : conversion === "r" ? pyRepr(value) : pyAscii(value);
      if (escaping && !(conversion === "s" && value instanceof Markup)) body = escapeText(body);
      if (precision >= 0) body = Array.from(body).slice(0, precision).join("");
      return pad(body, width, flags, 0, false);
    }
    case "d":
    case "i":
    case "u":
    case "o":
    case "x":
    case "X": {
      const [body, signLength] = formatInteger(
        toInteger(value, conversion, escaping),
        conversion,
        flags,
        precision,
      );
      return pad(body, width, flags, signLength, true);
    }
    case "e":
    case "E":
    case "f":
    case "F":
    case "g":
    case "G": {
      const [body, finite] = formatReal(toFloat(value), conversion, flags, precision);
      const signLength = /^[-+ ]/.test(body) ? 1 : 0;
      return pad(body, width, flags, signLength, finite);
    }
    case "c": {
      let ch: string;
      if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") {
        const code = Number(value);
        if (code < 0 || code > 0x10ffff) fail("OverflowError", "%c arg not in range(0x110000)");
        ch = String.fromCodePoint(code);
      } else if (isStr(value) && Array.from(strText(value)).length === 1) ch = strText(value);
      else return fail("TypeError", "%c requires int or char");
      return pad(ch, width, flags, 0, false);
    }
    default: {
      const code = conversion.codePointAt(0) as number;
      const shown = code < 31 || code > 126 ? "?" : conversion;
      return fail(
        "ValueError",
        `unsupported format character '${shown}' (0x${code.toString(16)}) at index ${index}`,
      );
    }
  }
}
