import { isStr, strText } from "./markup.js";
import { realToFloat } from "./python-numbers.js";
import { pyRepr, stringRepr } from "./python-repr.js";
import { normalizeInt, PyFloat, typeName, Undefined } from "./python-values.js";
import { PY_WHITESPACE } from "./strings/str-methods.js";
import { fail } from "./template-error.js";

/** Python's `int(x)`, `int(s, base)` and `float(x)` constructors, with their errors. */

const STRIP = new RegExp(`^[${PY_WHITESPACE}]+|[${PY_WHITESPACE}]+$`, "g");
const DECIMAL = /\p{Nd}/u;

/** Unicode decimal digits (`٣`, `３`) to ASCII, as Python's `int()` and `float()` read them. */
function asciiDigits(text: string): string {
  if (/^[\x00-\x7f]*$/.test(text)) return text;
  let out = "";
  for (const ch of text) {
    if (ch >= "0" && ch <= "9") out += ch;
    else if (DECIMAL.test(ch)) {
      let code = ch.codePointAt(0) as number;
      let value = 0;
      while (value < 9 && DECIMAL.test(String.fromCodePoint(code - 1))) {
        code--;
        value++;
      }
      out += String(value);
    } else out += ch;
  }
  return out;
}

function tooManyDigits(digits: number): never {
  return fail(
    "ValueError",
    `Exceeds the limit (4300 digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
  );
}

/**
 * `int(text, base)`.
 *
 * @example
 * intFromString(" 1_000 ", 10); // 1000
 */
export function intFromString(
  original: string,
  base: number,
  shown: string = stringRepr(original),
): number | bigint {
  if (base !== 0 && (base < 2 || base > 36)) fail("ValueError", "int() base must be >= 2 and <= 36, or 0");
  const invalid = () => fail("ValueError", `invalid literal for int() with base ${base}: ${shown}`);
  let text = asciiDigits(original.replace(STRIP, ""));
  let negative = false;
  if (text[0] === "+" || text[0] === "-") {
    negative = text[0] === "-";
    text = text.slice(1);
  }
  let radix = base;
  const prefix = /^0[xXoObB]/.exec(text)?.[0].toLowerCase();
  const prefixRadix = prefix === "0x" ? 16 : prefix === "0o" ? 8 : prefix === "0b" ? 2 : 0;
  if (prefixRadix !== 0 && (base === 0 || base === prefixRadix)) {
    radix = prefixRadix;
    text = text.slice(2).replace(/^_/, "");
  } else if (base === 0) {
    if (/^0+(_?0)*$/.test(text)) return 0;
    if (/^0/.test(text)) invalid();
    radix = 10;
  }
  if (text === "" || text.startsWith("_") || text.endsWith("_") || text.includes("__")) invalid();
  const digits = text.replace(/_/g, "");
  const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz".slice(0, radix);
  for (const ch of digits.toLowerCase()) if (!alphabet.includes(ch)) invalid();
  if (radix === 10 && digits.length > 4300) tooManyDigits(digits.length);
  let value = 0n;
  if (radix === 10) value = BigInt(digits);
  else for (const ch of digits.toLowerCase()) value = value * BigInt(radix) + BigInt(alphabet.indexOf(ch));
  return normalizeInt(negative ? -value : value);
}

const FLOAT_TEXT = /^[+-]?(?:(?:\d(?:_?\d)*)(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/**
 * `float(text)`.
 *
 * @example
 * floatFromString("1_000.5"); // 1000.5
 */
export function floatFromString(original: string, shown: string = stringRepr(original)): number {
  const text = asciiDigits(original.replace(STRIP, ""));
  const special = SPECIAL.exec(text);
  if (special !== null) {
    if ((special[2] as string).toLowerCase() === "nan") return Number.NaN;
    return special[1] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!FLOAT_TEXT.test(text)) fail("ValueError", `could not convert string to float: ${shown}`);
  return Number(text.replace(/_/g, ""));
}

/**
 * Python's `int(value)` for any engine value.
 *
 * @example
 * pythonInt(new PyFloat(-2.7)); // -2
 */
export function pythonInt(value: unknown): number | bigint {
  if (typeof value === "number" || typeof value === "bigint") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof PyFloat) {
    if (Number.isNaN(value.value)) fail("ValueError", "cannot convert float NaN to integer");
    if (!Number.isFinite(value.value)) fail("OverflowError", "cannot convert float infinity to integer");
    return normalizeInt(BigInt(Math.trunc(value.value)));
  }
  if (isStr(value)) return intFromString(strText(value), 10, pyRepr(value));
  if (value instanceof Undefined) return value.fail();
  return fail(
    "TypeError",
    `int() argument must be a string, a bytes-like object or a real number, not '${typeName(value)}'`,
  );
}

/**
 * Python's `float(value)` for any engine value, as a JavaScript number.
 *
 * @example
 * pythonFloat("1e3"); // 1000
 */
export function pythonFloat(value: unknown): number {
  const real = realToFloat(value);
  if (real !== undefined) return real;
  if (isStr(value)) return floatFromString(strText(value), pyRepr(value));
  if (value instanceof Undefined) return value.fail();
  return fail("TypeError", `float() argument must be a string or a real number, not '${typeName(value)}'`);
}
