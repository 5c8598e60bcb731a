import { codePoints } from "../access.js";
import { formatExponent, formatFixed, formatGeneral, formatNoType } from "../float-format.js";
import { isStr, Markup, strText } from "../markup.js";
import { pyStr } from "../python-repr.js";
import { PyFloat, typeName, Undefined } from "../python-values.js";
import { checkLength } from "../render-budget.js";
import { fail } from "../template-error.js";

/** Python's format-spec mini-language: `format(value, spec)` for str, int, bool, float and the rest. */

interface Spec {
  fill: string;
  align: string | null;
  sign: string | null;
  z: boolean;
  alternate: boolean;
  width: number;
  grouping: string | null;
  precision: number | null;
  type: string | null;
}

const ALIGN = "<>=^";

function parseSpec(spec: string, ofType: string): Spec {
  const cps = codePoints(spec);
  let i = 0;
  const out: Spec = {
    fill: " ",
    align: null,
    sign: null,
    z: false,
    alternate: false,
    width: -1,
    grouping: null,
    precision: null,
    type: null,
  };
  if (cps.length >= 2 && ALIGN.includes(cps[1] as string)) {
    out.fill = cps[0] as string;
    out.align = cps[1] as string;
    i = 2;
  } else if (cps.length >= 1 && ALIGN.includes(cps[0] as string)) {
    out.align = cps[0] as string;
    i = 1;
  }
  if (cps[i] === "+" || cps[i] === "-" || cps[i] === " ") out.sign = cps[i++] as string;
  if (cps[i] === "z") {
    out.z = true;
    i++;
  }
  if (cps[i] === "#") {
    out.alternate = true;
    i++;
  }
  if (cps[i] === "0" && out.align === null) {
    out.fill = "0";
    out.align = "=";
  }
  let digits = "";
  while (i < cps.length && /[0-9]/.test(cps[i] as string)) digits += cps[i++];
  if (digits !== "") out.width = Number(digits);
  if (cps[i] === "," || cps[i] === "_") {
    out.grouping = cps[i++] as string;
    if (cps[i] === "," || cps[i] === "_") fail("ValueError", "Cannot specify both ',' and '_'.");
  }
  if (cps[i] === ".") {
    i++;
    let precision = "";
    while (i < cps.length && /[0-9]/.test(cps[i] as string)) precision += cps[i++];
    if (precision === "") fail("ValueError", "Format specifier missing precision");
    out.precision = Number(precision);
  }
  if (cps.length - i > 1)
    fail("ValueError", `Invalid format specifier '${spec}' for object of type '${ofType}'`);
  if (i < cps.length) out.type = cps[i] as string;
  if (out.grouping !== null && out.type !== null) {
    const allowed = out.grouping === "_" ? "bdoxXeEfFgG%" : "deEfFgG%";
    if (!allowed.includes(out.type))
      fail("ValueError", `Cannot specify '${out.grouping}' with '${out.type}'.`);
  }
  return out;
}

function align(body: string, spec: Spec, defaultAlign: string, signLength: number): string {
  const length = codePoints(body).length;
  if (spec.width <= length) return body;
  const total = spec.width - length;
  checkLength(spec.width);
  const how = spec.align ?? defaultAlign;
  const fill = spec.fill;
  if (how === "<") return body + fill.repeat(total);
  if (how === ">") return fill.repeat(total) + body;
  if (how === "^") {
    const left = Math.floor(total / 2);
    return fill.repeat(left) + body + fill.repeat(total - left);
  }
  return body.slice(0, signLength) + fill.repeat(total) + body.slice(signLength);
}

/** Groups the digits of an integer part, every `size` digits, zero-padding to `minWidth` when asked. */
function group(digits: string, separator: string, size: number, minWidth: number): string {
  let padded = digits;
  const grouped = (d: number) => d + Math.floor((d - 1) / size);
  while (grouped(padded.length) < minWidth) padded = `0${padded}`;
  const parts: string[] = [];
  for (let end = padded.length; end > 0; end -= size)
    parts.unshift(padded.slice(Math.max(0, end - size), end));
  return parts.join(separator);
}

function signOf(negative: boolean, spec: Spec): string {
  if (negative) return "-";
  if (spec.sign === "+") return "+";
  if (spec.sign === " ") return " ";
  return "";
}

function finish(
  sign: string,
  prefix: string,
  digits: string,
  rest: string,
  spec: Spec,
  size: number,
): string {
  let number = digits;
  if (spec.grouping !== null) {
    const zeroPad = spec.fill === "0" && spec.align === "=";
    const minWidth = zeroPad ? spec.width - sign.length - prefix.length - codePoints(rest).length : 0;
    number = group(digits, spec.grouping, size, minWidth);
  }
  const head = sign + prefix;
  return align(head + number + rest, spec, ">", head.length);
}

function formatInt(value: bigint, spec: Spec): string {
  const type = spec.type ?? "d";
  if (spec.precision !== null) fail("ValueError", "Precision not allowed in integer format specifier");
  if (spec.z) fail("ValueError", "Negative zero coercion (z) not allowed in integer format specifier");
  if (type === "c") {
    if (spec.sign !== null) fail("ValueError", "Sign not allowed with integer format specifier 'c'");
    if (spec.alternate)
      fail("ValueError", "Alternate form (#) not allowed with integer format specifier 'c'");
    // format() reads the code point as a C long first.
    if (value < -(2n ** 63n) || value >= 2n ** 63n)
      fail("OverflowError", "Python int too large to convert to C long");
    if (value < 0n || value > 0x10ffffn) fail("OverflowError", "%c arg not in range(0x110000)");
    return align(String.fromCodePoint(Number(value)), spec, ">", 0);
  }
  const bases: Record<string, [number, string]> = {
    d: [10, ""],
    n: [10, ""],
    b: [2, "0b"],
    o: [8, "0o"],
    x: [16, "0x"],
    X: [16, "0X"],
  };
  const base = bases[type];
  if (base === undefined) fail("ValueError", `Unknown format code '${type}' for object of type 'int'`);
  const negative = value < 0n;
  let digits = (negative ? -value : value).toString(base[0]);
  if (type === "X") digits = digits.toUpperCase();
  const prefix = spec.alternate ? base[1] : "";
  return finish(signOf(negative, spec), prefix, digits, "", spec, base[0] === 10 ? 3 : 4);
}

function formatFloat(x: number, spec: Spec, ofType: string): string {
  const type = spec.type;
  if (type !== null && !"eEfFgGn%".includes(type))
    fail("ValueError", `Unknown format code '${type}' for object of type '${ofType}'`);
  let value = x;
  if (type === "%") value *= 100;
  const precision = spec.precision ?? 6;
  let text: string;
  switch (type) {
    case "e":
    case "E":
      text = formatExponent(value, precision, type === "E", spec.alternate);
      break;
    case "f":
    case "F":
    case "%":
      text = formatFixed(value, precision, type === "F");
      if (spec.alternate && precision === 0 && Number.isFinite(value)) text += ".";
      break;
    case "g":
    case "G":
    case "n":
      text = formatGeneral(value, precision, type === "G", spec.alternate);
      break;
    default:
      text = formatNoType(value, spec.precision);
      break;
  }
  let negative = text.startsWith("-");
  if (negative) text = text.slice(1);
  if (spec.z && negative && /^[0.]+(?:[eE][+-]\d+)?$/.test(text)) negative = false;
  const rest = type === "%" ? "%" : "";
  if (!Number.isFinite(value)) {
    const sign = signOf(negative, spec);
    return align(sign + text + rest, spec, ">", sign.length);
  }
  const match = /^(\d*)(.*)$/s.exec(text) as RegExpExecArray;
  const [, digits = "", fraction = ""] = match;
  return finish(signOf(negative, spec), "", digits, fraction + rest, spec, 3);
}

function formatText(text: string, spec: Spec, ofType: string): string {
  if (spec.type !== null && spec.type !== "s")
    fail("ValueError", `Unknown format code '${spec.type}' for object of type '${ofType}'`);
  if (spec.sign !== null) fail("ValueError", "Sign not allowed in string format specifier");
  if (spec.z) fail("ValueError", "Negative zero coercion (z) not allowed in string format specifier");
  if (spec.alternate) fail("ValueError", "Alternate form (#) not allowed in string format specifier");
  if (spec.align === "=") fail("ValueError", "'=' alignment not allowed in string format specifier");
  if (spec.grouping !== null) fail("ValueError", `Cannot specify '${spec.grouping}' with 's'.`);
  const body = spec.precision === null ? text : codePoints(text).slice(0, spec.precision).join("");
  return align(body, spec, "<", 0);
}

/**
 * Python's builtin `format(value, spec)`.
 *
 * @example
 * formatValue(new PyFloat(3.14159), ">8.3f"); // "   3.142"
 * formatValue(1234567, ","); // "1,234,567"
 */
export function formatValue(value: unknown, spec: string): string {
  if (isStr(value)) {
    if (spec === "") return strText(value);
    return formatText(strText(value), parseSpec(spec, typeName(value)), typeName(value));
  }
  if (typeof value === "number" || typeof value === "bigint") {
    if (spec === "") return String(value);
    const parsed = parseSpec(spec, "int");
    if (parsed.type !== null && "eEfFgG%".includes(parsed.type))
      return formatFloat(Number(value), parsed, "int");
    return formatInt(BigInt(value), parsed);
  }
  if (typeof value === "boolean") {
    if (spec === "") return value ? "True" : "False";
    return formatValue(value ? 1 : 0, spec);
  }
  if (value instanceof PyFloat) {
    const parsed = parseSpec(spec, "float");
    if (spec === "") return formatNoType(value.value, null);
    return formatFloat(value.value, parsed, "float");
  }
  if (spec === "") return pyStr(value);
  const name = value instanceof Undefined ? "Undefined" : value instanceof Markup ? "str" : typeName(value);
  return fail("TypeError", `unsupported format string passed to ${name}.__format__`);
}
