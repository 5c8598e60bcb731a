import { pythonFloatRepr } from "@toolcall/core/kit";
import { DictView } from "./dict-view.js";
import { lateBound } from "./late-bound.js";
import { Markup } from "./markup.js";
import { PyBytes } from "./py-bytes.js";
import { PyIterator } from "./py-iterator.js";
import { PyObject } from "./py-object.js";
import { PyRange } from "./py-range.js";
import { Namespace, PyFloat, PyFunction, Undefined } from "./python-values.js";
import { fail } from "./template-error.js";
import { isTuple } from "./tuple.js";

/** Python's `repr(float)` / `str(float)`: `1.0`, `1e+20`, `nan`, `inf`. */
export function floatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (value === Number.POSITIVE_INFINITY) return "inf";
  if (value === Number.NEGATIVE_INFINITY) return "-inf";
  return pythonFloatRepr(value);
}

/** Where Python prints a memory address (`<generator object … at 0x…>`), this fixed one stands in. */
export const FAKE_ADDRESS = "0x7f0000000000";

const PLAIN = /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/;
/** What Python's str.isprintable() rejects: other (Cc, Cf, Cs, Co, Cn) and separators (Zl, Zp, Zs) but space. */
export const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, "0");
}

function escapeChar(code: number): string {
  if (code < 0x100) return `\\x${hex(code, 2)}`;
  if (code < 0x10000) return `\\u${hex(code, 4)}`;
  return `\\U${hex(code, 8)}`;
}

/** Python's `repr(str)` (`ascii(str)` with `ascii`). */
export function stringRepr(text: string, ascii = false): string {
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
    else if (ascii || (ch !== " " && NON_PRINTABLE.test(ch))) out += escapeChar(code);
    else out += ch;
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
  return pyStrInner(value, true, false);
}

/**
 * Python's `ascii()`: `repr()` with every non-ASCII character escaped.
 *
 * @example
 * pyAscii("é"); // "'\\xe9'"
 */
export function pyAscii(value: unknown): string {
  if (typeof value === "string") return stringRepr(value, true);
  return pyStrInner(value, true, true);
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
  return pyStrInner(value, false, false);
}

function pyStrInner(value: unknown, repr: boolean, ascii: boolean): string {
  if (value === null) return "None";
  switch (typeof value) {
    case "boolean":
      return value ? "True" : "False";
    case "number":
      return String(value);
    case "bigint": {
      const text = String(value);
      if (text.length > 4300 + (value < 0n ? 1 : 0))
        fail(
          "ValueError",
          "Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit",
        );
      return text;
    }
    case "undefined":
      return repr ? "Undefined" : "";
    default:
      break;
  }
  const item = ascii ? pyAscii : pyRepr;
  if (value instanceof PyFloat) return floatRepr(value.value);
  if (Array.isArray(value) || value instanceof Map) {
    // Python's repr of a list or dict that holds itself prints `[...]` / `{...}` where it recurs.
    if (reprInProgress.has(value)) return Array.isArray(value) ? "[...]" : "{...}";
    reprInProgress.add(value);
    try {
      return containerRepr(value, item);
    } finally {
      reprInProgress.delete(value);
    }
  }
  if (value instanceof Markup) return repr ? `Markup(${item(value.text)})` : value.text;
  if (value instanceof Undefined) return repr ? "Undefined" : "";
  if (value instanceof PyObject) return objectRepr(value, item);
  return String(value);
}

/** The lists and dicts whose repr is being written, outermost first. */
const reprInProgress = new Set<unknown>();

function containerRepr(value: unknown[] | Map<unknown, unknown>, item: (v: unknown) => string): string {
  if (Array.isArray(value)) {
    const parts = value.map(item);
    if (isTuple(value)) return parts.length === 1 ? `(${parts[0]},)` : `(${parts.join(", ")})`;
    return `[${parts.join(", ")}]`;
  }
  const parts: string[] = [];
  for (const [k, v] of value) parts.push(`${item(k)}: ${item(v)}`);
  return `{${parts.join(", ")}}`;
}

function objectRepr(value: PyObject, item: (v: unknown) => string): string {
  if (value instanceof PyBytes) return value.repr();
  if (value instanceof PyRange) {
    return value.step === 1
      ? `range(${value.start}, ${value.stop})`
      : `range(${value.start}, ${value.stop}, ${value.step})`;
  }
  if (value instanceof DictView) return `${value.kind}([${value.items().map(item).join(", ")}])`;
  if (value instanceof PyIterator) {
    return value.type === "generator"
      ? `<generator object ${value.functionName} at ${FAKE_ADDRESS}>`
      : `<${value.type} object at ${FAKE_ADDRESS}>`;
  }
  if (value instanceof Namespace) return `<Namespace ${item(value.attributes)}>`;
  if (value instanceof PyFunction) {
    if (value.kind === "Macro")
      return `<Macro ${(value as { anonymous?: boolean }).anonymous ? "anonymous" : item(value.name)}>`;
    if (value.kind === "builtin_function_or_method")
      return `<built-in method ${value.name}${value.owner === undefined ? "" : ` of ${value.owner} object`} at ${FAKE_ADDRESS}>`;
    if (value.kind === "method" && value.owner !== undefined) return `<bound method ${value.owner}>`;
    return `<function ${value.name} at ${FAKE_ADDRESS}>`;
  }
  const custom = value.getAttr("__repr__");
  if (typeof custom === "string") return custom;
  const module = value.pyModule;
  return `<${module === "builtins" ? "" : `${module}.`}${value.pyType} object at ${FAKE_ADDRESS}>`;
}

lateBound.repr = pyRepr;
