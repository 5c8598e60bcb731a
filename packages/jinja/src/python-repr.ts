import { pythonFloatRepr } from "@toolcall/core";
import { isTuple, LoopLike, Namespace, PyFloat, PyFunction, Undefined } from "./values.js";

/** Python's `repr(float)` / `str(float)`: `1.0`, `1e+20`, `nan`, `inf`. */
export function floatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (value === Number.POSITIVE_INFINITY) return "inf";
  if (value === Number.NEGATIVE_INFINITY) return "-inf";
  return pythonFloatRepr(value);
}

const PLAIN = /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/;
// What Python's str.isprintable() rejects: other (Cc, Cf, Cs, Co, Cn) and separators (Zl, Zp, Zs) but space.
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, "0");
}

/** Python's `repr(str)`. */
export function stringRepr(text: string): string {
  if (PLAIN.test(text)) return `'${text}'`;
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${hex(code, 2)}`;
    else if (code < 0x7f) out += ch;
    else if (ch !== " " && NON_PRINTABLE.test(ch)) {
      if (code < 0x100) out += `\\x${hex(code, 2)}`;
      else if (code < 0x10000) out += `\\u${hex(code, 4)}`;
      else out += `\\U${hex(code, 8)}`;
    } else out += ch;
  }
  return out + quote;
}

/**
 * Python's `repr()` of an engine value.
 *
 * @example
 * pyRepr(toPython(["it's", 1.5, null])); // `["it's", 1.5, None]`
 */
export function pyRepr(value: unknown): string {
  if (typeof value === "string") return stringRepr(value);
  return pyStrInner(value, true);
}

/**
 * Python's `str()` of an engine value, as `{{ }}`, `~` and `|string` print it.
 *
 * @example
 * pyStr(true); // "True"
 * pyStr(new PyFloat(20)); // "20.0"
 * pyStr(toPython({ a: [1, null] })); // "{'a': [1, None]}"
 */
export function pyStr(value: unknown): string {
  if (typeof value === "string") return value;
  return pyStrInner(value, false);
}

function pyStrInner(value: unknown, repr: boolean): string {
  if (value === null) return "None";
  switch (typeof value) {
    case "boolean":
      return value ? "True" : "False";
    case "number":
    case "bigint":
      return String(value);
    case "undefined":
      return repr ? "Undefined" : "";
    default:
      break;
  }
  if (value instanceof PyFloat) return floatRepr(value.value);
  if (value instanceof Undefined) return repr ? "Undefined" : "";
  if (Array.isArray(value)) {
    const parts = value.map(pyRepr);
    if (isTuple(value)) return parts.length === 1 ? `(${parts[0]},)` : `(${parts.join(", ")})`;
    return `[${parts.join(", ")}]`;
  }
  if (value instanceof Map) {
    const parts: string[] = [];
    for (const [k, v] of value) parts.push(`${pyRepr(k)}: ${pyRepr(v)}`);
    return `{${parts.join(", ")}}`;
  }
  if (value instanceof Namespace) return `<Namespace ${pyRepr(value.attributes)}>`;
  if (value instanceof PyFunction) return `<${value.kind} ${value.name}>`;
  if (value instanceof LoopLike) return "<LoopContext>";
  return String(value);
}
