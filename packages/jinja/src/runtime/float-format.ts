import { floatRepr } from "./python-repr.js";
import { chargeSteps, checkLength } from "./render-budget.js";

/**
 * Python's float formatting (`'%.2f' % x`, `format(x, '.3e')`, `round(x, 2)`), digit for digit: a double is an
 * exact binary fraction, so `2.675` is 2.67499999999999982236431605997495353221893310546875 and rounds to `2.67`;
 * an exact tie (`0.125` to two places) rounds half to even. Computed on the exact value with bigints.
 */

const view = new DataView(new ArrayBuffer(8));

/** `|x| = mantissa * 2^exponent` exactly, for a finite `x`. */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  view.setFloat64(0, x);
  const high = view.getUint32(0);
  const low = view.getUint32(4);
  const biased = (high >>> 20) & 0x7ff;
  let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(low);
  let exponent: number;
  if (biased === 0) exponent = -1074;
  else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  return { mantissa, exponent };
}

/** `round(numerator / denominator)`, ties to even; both positive. */
function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const twice = (numerator % denominator) * 2n;
  if (twice > denominator || (twice === denominator && (quotient & 1n) === 1n)) return quotient + 1n;
  return quotient;
}

/**
 * Charges the work of a bigint division of numbers of about `digits` digits: a schoolbook division costs the
 * product of the operands' 64-bit limbs (19 digits each).
 */
function chargeDivision(digits: number): void {
  const limbs = Math.ceil(digits / 19) + 1;
  chargeSteps(limbs * limbs);
}

/** `round(|x| * 10^scale)`, ties to even, for finite `x` and any integer `scale`. */
function scaledInteger(x: number, scale: number): bigint {
  if (x === 0) return 0n;
  const { mantissa, exponent } = decompose(x);
  let numerator = mantissa;
  let denominator = 1n;
  if (exponent >= 0) numerator <<= BigInt(exponent);
  else denominator <<= BigInt(-exponent);
  chargeDivision(Math.abs(scale) + Math.abs(exponent));
  if (scale >= 0) numerator *= 10n ** BigInt(scale);
  else denominator *= 10n ** BigInt(-scale);
  return divideHalfEven(numerator, denominator);
}

function isNegative(x: number): boolean {
  return x < 0 || Object.is(x, -0);
}

function special(x: number, upper: boolean): string | undefined {
  if (Number.isNaN(x)) return upper ? "NAN" : "nan";
  if (x === Number.POSITIVE_INFINITY) return upper ? "INF" : "inf";
  if (x === Number.NEGATIVE_INFINITY) return upper ? "-INF" : "-inf";
  return undefined;
}

/**
 * Places past which every digit of a double is zero: the exact value is `m * 2^e` with `e >= -1074`, so it has at
 * most 1074 digits after the point (and, at most 767 significant ones). Digits asked for past these are padded
 * with zeros rather than computed: `'%.20000000f' % 1.5` costs the zeros, not a 20-million-digit division.
 */
const EXACT_PLACES = 1075;
const EXACT_SIGNIFICANT = 1100;

/** The digits of `|x|` with `precision` places after the point (`'%.Nf'` without the sign). */
function fixedDigits(x: number, precision: number): string {
  checkLength(precision);
  if (precision > EXACT_PLACES) return fixedDigits(x, EXACT_PLACES) + "0".repeat(precision - EXACT_PLACES);
  const digits = scaledInteger(x, precision)
    .toString()
    .padStart(precision + 1, "0");
  if (precision === 0) return digits;
  return `${digits.slice(0, -precision)}.${digits.slice(-precision)}`;
}

/**
 * `'%.{precision}f' % x`.
 *
 * @example
 * formatFixed(2.675, 2); // "2.67"
 * formatFixed(0.125, 2); // "0.12"
 */
export function formatFixed(x: number, precision: number, upper = false): string {
  const text = special(x, upper);
  if (text !== undefined) return text;
  return (isNegative(x) ? "-" : "") + fixedDigits(x, precision);
}

/** The significand's digits (`precision + 1` of them) and the decimal exponent of `|x|`, rounded half to even. */
function exponentDigits(x: number, precision: number): { digits: string; exponent: number } {
  checkLength(precision);
  if (precision > EXACT_SIGNIFICANT) {
    const exact = exponentDigits(x, EXACT_SIGNIFICANT);
    return { digits: exact.digits + "0".repeat(precision - EXACT_SIGNIFICANT), exponent: exact.exponent };
  }
  if (x === 0) return { digits: "0".repeat(precision + 1), exponent: 0 };
  let exponent = Math.floor(Math.log10(Math.abs(x)));
  const low = 10n ** BigInt(precision);
  const high = low * 10n;
  for (;;) {
    const scaled = scaledInteger(x, precision - exponent);
    if (scaled >= high) exponent++;
    else if (scaled < low) exponent--;
    else return { digits: scaled.toString(), exponent };
  }
}

function exponentText(exponent: number, upper: boolean): string {
  const sign = exponent < 0 ? "-" : "+";
  return `${upper ? "E" : "e"}${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

/**
 * `'%.{precision}e' % x`.
 *
 * @example
 * formatExponent(12345.678, 6); // "1.234568e+04"
 */
export function formatExponent(x: number, precision: number, upper = false, alternate = false): string {
  const text = special(x, upper);
  if (text !== undefined) return text;
  const { digits, exponent } = exponentDigits(x, precision);
  const head = precision === 0 ? `${digits}${alternate ? "." : ""}` : `${digits[0]}.${digits.slice(1)}`;
  return `${isNegative(x) ? "-" : ""}${head}${exponentText(exponent, upper)}`;
}

function stripZeros(text: string): string {
  if (!text.includes(".")) return text;
  return text.replace(/\.?0+$/, "");
}

/**
 * `'%.{precision}g' % x`: fixed or exponent notation by the exponent, trailing zeros dropped unless `alternate`.
 *
 * @example
 * formatGeneral(0.00001234, 6); // "1.234e-05"
 * formatGeneral(1e20, 6); // "1e+20"
 */
export function formatGeneral(x: number, precision: number, upper = false, alternate = false): string {
  const text = special(x, upper);
  if (text !== undefined) return text;
  const p = precision === 0 ? 1 : precision;
  const { exponent } = exponentDigits(x, p - 1);
  const sign = isNegative(x) ? "-" : "";
  if (exponent >= -4 && exponent < p) {
    const body = fixedDigits(x, p - 1 - exponent);
    const withPoint = alternate && !body.includes(".") ? `${body}.` : body;
    return sign + (alternate ? withPoint : stripZeros(body));
  }
  const { digits } = exponentDigits(x, p - 1);
  let head = p - 1 === 0 ? digits : `${digits[0]}.${digits.slice(1)}`;
  if (alternate) {
    if (!head.includes(".")) head += ".";
  } else head = stripZeros(head);
  return `${sign}${head}${exponentText(exponent, upper)}`;
}

/**
 * `format(x, '.{precision}')` and `format(x, '')` for a float: `repr` without a precision, else `g` that keeps a
 * point (`1.0`, not `1`).
 *
 * @example
 * formatNoType(100, 3); // "100.0"
 */
export function formatNoType(x: number, precision: number | null): string {
  if (precision === null) return floatRepr(x);
  const text = formatGeneral(x, precision);
  if (/^-?\d+$/.test(text)) return `${text}.0`;
  return text;
}

/**
 * Python's `round(x, ndigits)` for a float: the decimal rounding of the exact binary value, ties to even.
 *
 * @example
 * roundFloat(2.675, 2); // 2.67
 * roundFloat(2.5, 0); // 2
 */
export function roundFloat(x: number, ndigits: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  if (ndigits > 323) return x;
  if (ndigits < -308) return isNegative(x) ? -0 : 0;
  const scaled = scaledInteger(x, ndigits);
  const magnitude = Number(`${scaled.toString()}e${-ndigits}`);
  if (!Number.isFinite(magnitude)) return magnitude;
  return isNegative(x) ? -magnitude : magnitude;
}

/**
 * Python's `round(n, ndigits)` for an int and a negative `ndigits`: to a multiple of `10^-ndigits`, ties to even.
 *
 * @example
 * roundInteger(1250n, -2); // 1200n
 */
export function roundInteger(value: bigint, ndigits: number): bigint {
  if (ndigits >= 0) return value;
  const unit = 10n ** BigInt(-ndigits);
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const rounded = divideHalfEven(magnitude, unit) * unit;
  return negative ? -rounded : rounded;
}
