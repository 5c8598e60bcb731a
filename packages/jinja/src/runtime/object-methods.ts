import { dictGet, iterate } from "./access.js";
import { DictView } from "./dict-view.js";
import { escapeText, Markup, striptagsText, unescapeText } from "./markup.js";
import { checkArity } from "./method-arity.js";
import { eq } from "./operators.js";
import { MISSING } from "./py-object.js";
import { pyRepr, pyStr } from "./python-repr.js";
import { isTuple, normalizeInt, PyFloat, tuple, typeName } from "./python-values.js";
import { callStringMethod, indexArgument, STRING_METHODS } from "./strings/str-methods.js";
import { fail } from "./template-error.js";

/** Methods of `dict`, `list`, `tuple`, `int`, `float` (and `str`, in str-methods) that templates call. */

/** Methods that mutate: the immutable sandbox refuses them (Jinja's `_mutable_spec`). */
const DICT_MUTATING: ReadonlySet<string> = new Set(["clear", "pop", "popitem", "setdefault", "update"]);
const LIST_MUTATING: ReadonlySet<string> = new Set([
  "append",
  "clear",
  "pop",
  "reverse",
  "insert",
  "sort",
  "extend",
  "remove",
]);

const DICT_METHODS = new Set(["get", "items", "keys", "values", "copy", "fromkeys", ...DICT_MUTATING]);
const LIST_METHODS = new Set(["index", "count", "copy", ...LIST_MUTATING]);
const TUPLE_METHODS = new Set(["index", "count"]);
const INT_METHODS = new Set(["bit_length", "bit_count", "conjugate", "as_integer_ratio"]);
const FLOAT_METHODS = new Set(["is_integer", "conjugate", "as_integer_ratio", "hex"]);
const MARKUP_METHODS = new Set([...STRING_METHODS, "striptags", "unescape", "escape"]);

/** True when Python's `getattr(obj, name)` finds a method. */
export function hasMethod(obj: unknown, name: string): boolean {
  if (typeof obj === "string") return STRING_METHODS.has(name);
  if (obj instanceof Map) return DICT_METHODS.has(name);
  if (Array.isArray(obj)) return isTuple(obj) ? TUPLE_METHODS.has(name) : LIST_METHODS.has(name);
  if (typeof obj === "number" || typeof obj === "bigint" || typeof obj === "boolean")
    return INT_METHODS.has(name);
  if (obj instanceof PyFloat) return FLOAT_METHODS.has(name);
  if (obj instanceof Markup) return MARKUP_METHODS.has(name);
  return false;
}

/** True for a method the immutable sandbox refuses (`list.append`, `dict.update`, …). */
export function isMutating(obj: unknown, name: string): boolean {
  if (obj instanceof Map) return DICT_MUTATING.has(name);
  if (Array.isArray(obj) && !isTuple(obj)) return LIST_MUTATING.has(name);
  return false;
}

function bigOf(value: number | bigint | boolean): bigint {
  return typeof value === "bigint" ? value : BigInt(typeof value === "boolean" ? Number(value) : value);
}

function intMethod(value: number | bigint | boolean, name: string): unknown {
  const n = bigOf(value);
  const magnitude = n < 0n ? -n : n;
  switch (name) {
    case "bit_length":
      return magnitude === 0n ? 0 : magnitude.toString(2).length;
    case "bit_count":
      return magnitude.toString(2).replace(/0/g, "").length;
    case "conjugate":
      return normalizeInt(n);
    case "as_integer_ratio":
      return tuple([normalizeInt(n), 1]);
    default:
      return fail("AttributeError", `'int' object has no attribute '${name}'`);
  }
}

function floatHex(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (x === 0) return `${sign}0x0.0p+0`;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = (bits & ((1n << 52n) - 1n)).toString(16).padStart(13, "0");
  const lead = biased === 0 ? "0" : "1";
  const exponent = biased === 0 ? -1022 : biased - 1023;
  return `${sign}0x${lead}.${fraction}p${exponent < 0 ? "-" : "+"}${Math.abs(exponent)}`;
}

function floatMethod(value: number, name: string): unknown {
  switch (name) {
    case "is_integer":
      return Number.isInteger(value);
    case "conjugate":
      return new PyFloat(value);
    case "hex":
      return floatHex(value);
    case "as_integer_ratio": {
      if (Number.isNaN(value)) fail("ValueError", "cannot convert NaN to integer ratio");
      if (!Number.isFinite(value)) fail("OverflowError", "cannot convert Infinity to integer ratio");
      let numerator = value;
      let denominator = 1n;
      while (!Number.isInteger(numerator)) {
        numerator *= 2;
        denominator *= 2n;
      }
      return tuple([normalizeInt(BigInt(numerator)), normalizeInt(denominator)]);
    }
    default:
      return fail("AttributeError", `'float' object has no attribute '${name}'`);
  }
}

function dictMethod(map: Map<unknown, unknown>, name: string, args: unknown[]): unknown {
  switch (name) {
    case "get": {
      if (args[0] instanceof Map || (Array.isArray(args[0]) && !isTuple(args[0])))
        fail("TypeError", `unhashable type: '${typeName(args[0])}'`);
      const value = dictGet(map, args[0]);
      return value === MISSING ? (args.length > 1 ? args[1] : null) : value;
    }
    case "items":
      return new DictView("dict_items", map);
    case "keys":
      return new DictView("dict_keys", map);
    case "values":
      return new DictView("dict_values", map);
    case "copy":
      return new Map(map);
    case "fromkeys": {
      const out = new Map<unknown, unknown>();
      const fill = args.length > 1 ? args[1] : null;
      for (const key of iterate(args[0])) out.set(key, fill);
      return out;
    }
    default:
      return fail("SecurityError", `access to attribute '${name}' of 'dict' object is unsafe.`);
  }
}

function sequenceMethod(items: unknown[], name: string, args: unknown[]): unknown {
  switch (name) {
    case "index": {
      const length = items.length;
      const bound = (v: unknown, fallback: number) => {
        if (v === undefined) return fallback;
        let n = indexArgument(v);
        if (n < 0) n = Math.max(0, n + length);
        return Math.min(n, length);
      };
      const start = bound(args[1], 0);
      const stop = bound(args[2], length);
      for (let i = start; i < stop; i++) if (eq(items[i], args[0])) return i;
      return fail(
        "ValueError",
        isTuple(items) ? "tuple.index(x): x not in tuple" : `${pyRepr(args[0])} is not in list`,
      );
    }
    case "count":
      return items.filter((x) => eq(x, args[0])).length;
    case "copy":
      return items.slice();
    default:
      return fail("SecurityError", `access to attribute '${name}' of 'list' object is unsafe.`);
  }
}

/** Calls `obj.name(...)` for a str, Markup, dict, list, tuple, int or float method. */
export function callMethod(
  obj: unknown,
  name: string,
  args: unknown[],
  kwargs: Map<string, unknown> | null,
): unknown {
  if (typeof obj === "string") return callStringMethod(obj, name, args, kwargs);
  if (obj instanceof Markup) {
    if (name === "striptags") return striptagsText(obj.text);
    if (name === "unescape") return unescapeText(obj.text);
    if (name === "escape")
      return args[0] instanceof Markup ? args[0] : new Markup(escapeText(pyStr(args[0])));
    return callStringMethod(obj, name, args, kwargs);
  }
  checkArity(typeof obj === "boolean" ? "int" : typeName(obj), name, args, kwargs);
  if (obj instanceof Map) return dictMethod(obj, name, args);
  if (Array.isArray(obj)) return sequenceMethod(obj, name, args);
  if (typeof obj === "number" || typeof obj === "bigint" || typeof obj === "boolean")
    return intMethod(obj, name);
  if (obj instanceof PyFloat) return floatMethod(obj.value, name);
  return fail("AttributeError", `'${typeName(obj)}' object has no attribute '${name}'`);
}
