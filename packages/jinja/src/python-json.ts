import { order } from "./operators.js";
import { floatRepr } from "./python-repr.js";
import { fail } from "./template-error.js";
import { isTuple, PyFloat, typeName } from "./values.js";

/** The keyword arguments of Python's `json.dumps` that transformers' `tojson` passes on. */
export interface PythonJsonOptions {
  ensureAscii?: boolean;
  /** `null`: one line. A number: that many spaces per level. A string: that string per level. */
  indent?: number | string | null;
  /** `[item separator, key separator]`; default `[", ", ": "]`, or `[",", ": "]` with an indent. */
  separators?: readonly [string, string] | null;
  sortKeys?: boolean;
}

const NON_ASCII = /[\u007f-\uffff]/g;

function quote(text: string, ensureAscii: boolean): string {
  const quoted = JSON.stringify(text);
  if (!ensureAscii) return quoted;
  return quoted.replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function floatJson(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "Infinity";
  if (value === Number.NEGATIVE_INFINITY) return "-Infinity";
  return floatRepr(value);
}

function keyText(key: unknown): string {
  if (typeof key === "string") return key;
  if (typeof key === "number" || typeof key === "bigint") return String(key);
  if (typeof key === "boolean") return key ? "true" : "false";
  if (key === null) return "null";
  if (key instanceof PyFloat) return floatJson(key.value);
  return fail("TypeError", `keys must be str, int, float, bool or None, not ${typeName(key)}`);
}

/**
 * Python's `json.dumps(value, ensure_ascii=…, indent=…, separators=…, sort_keys=…)` over engine values, byte for
 * byte: `1.0` stays `1.0`, big integers keep every digit, non-ASCII stays raw unless `ensureAscii`.
 *
 * @example
 * pythonJsonDumps(new Map([["a", [1, 2]]]), {}); // '{"a": [1, 2]}'
 */
export function pythonJsonDumps(value: unknown, options: PythonJsonOptions = {}): string {
  const ensureAscii = options.ensureAscii ?? true;
  const indentOption = options.indent ?? null;
  const indent =
    indentOption === null
      ? null
      : typeof indentOption === "string"
        ? indentOption
        : " ".repeat(Math.max(0, indentOption));
  const [itemSeparator, keySeparator] = options.separators ?? (indent === null ? [", ", ": "] : [",", ": "]);
  const sortKeys = options.sortKeys ?? false;

  const write = (v: unknown, level: number): string => {
    if (typeof v === "string") return quote(v, ensureAscii);
    if (v === null) return "null";
    switch (typeof v) {
      case "boolean":
        return v ? "true" : "false";
      case "number":
      case "bigint":
        return String(v);
      default:
        break;
    }
    if (v instanceof PyFloat) return floatJson(v.value);
    if (Array.isArray(v)) {
      if (v.length === 0) return "[]";
      const parts = v.map((item) => write(item, level + 1));
      return wrap("[", "]", parts, level);
    }
    if (v instanceof Map) {
      if (v.size === 0) return "{}";
      let entries = Array.from(v);
      if (sortKeys) entries = entries.sort((a, b) => order(a[0], b[0]));
      const parts = entries.map(
        ([k, item]) => `${quote(keyText(k), ensureAscii)}${keySeparator}${write(item, level + 1)}`,
      );
      return wrap("{", "}", parts, level);
    }
    return fail("TypeError", `Object of type ${typeName(v)} is not JSON serializable`);
  };
  const wrap = (open: string, close: string, parts: string[], level: number): string => {
    if (indent === null) return `${open}${parts.join(itemSeparator)}${close}`;
    const inner = `\n${indent.repeat(level + 1)}`;
    return `${open}${inner}${parts.join(itemSeparator + inner)}\n${indent.repeat(level)}${close}`;
  };
  return write(value, 0);
}

/** Reads `tojson`'s keyword arguments from engine values. */
export function jsonOptionsFromKwargs(
  kwargs: Map<string, unknown> | null,
  positional: unknown[],
): PythonJsonOptions {
  const get = (name: string, index: number) => (kwargs?.has(name) ? kwargs.get(name) : positional[index]);
  const ensureAscii = get("ensure_ascii", 0);
  const indent = get("indent", 1);
  const separators = get("separators", 2);
  const sortKeys = get("sort_keys", 3);
  const options: PythonJsonOptions = {
    ensureAscii: ensureAscii === undefined ? false : Boolean(ensureAscii),
  };
  if (typeof indent === "number" || typeof indent === "string") options.indent = indent;
  else if (typeof indent === "bigint") options.indent = Number(indent);
  if (
    Array.isArray(separators) &&
    separators.length === 2 &&
    (isTuple(separators) || Array.isArray(separators))
  ) {
    options.separators = [String(separators[0]), String(separators[1])];
  }
  if (sortKeys !== undefined && sortKeys !== null) options.sortKeys = Boolean(sortKeys);
  return options;
}
