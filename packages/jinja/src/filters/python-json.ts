import { iterate } from "../runtime/access.js";
import { isStr, Markup, strText } from "../runtime/markup.js";
import { mul } from "../runtime/operators.js";
import { floatRepr, pyStr } from "../runtime/python-repr.js";
import { pythonSorted } from "../runtime/python-sort.js";
import { PyFloat, truthy, typeName } from "../runtime/python-values.js";
import { checkLength } from "../runtime/render-budget.js";
import { fail } from "../runtime/template-error.js";

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
  if (isStr(key)) return strText(key);
  if (typeof key === "boolean") return key ? "true" : "false";
  if (typeof key === "number" || typeof key === "bigint") return pyStr(key);
  if (key === null) return "null";
  if (key instanceof PyFloat) return floatJson(key.value);
  return fail("TypeError", `keys must be str, int, float, bool or None, not ${typeName(key)}`);
}

/** The depth past which a JSON walk looks for a value that holds itself. */
const TRACK_DEPTH = 64;

/** `length`, once the output budget allows a string that long. */
function checkedLength(length: number): number {
  checkLength(length);
  return length;
}

/**
 * Python's `json.dumps(value, ensure_ascii=…, indent=…, separators=…, sort_keys=…)` over engine values, byte for
 * byte: `1.0` stays `1.0`, big integers keep every digit, non-ASCII stays raw unless `ensureAscii`; a value JSON
 * cannot hold (a generator, a range, a dict view, Undefined) raises Python's `TypeError`.
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
        : " ".repeat(Math.max(0, checkedLength(indentOption)));
  const [itemSeparator, keySeparator] = options.separators ?? (indent === null ? [", ", ": "] : [",", ": "]);
  const sortKeys = options.sortKeys ?? false;

  // The text is appended to one string as the walk goes (no list of parts per container, no joins).
  let out = "";
  const write = (v: unknown, level: number): void => {
    if (typeof v === "string") out += quote(v, ensureAscii);
    else if (v === null) out += "null";
    else if (typeof v === "boolean") out += v ? "true" : "false";
    else if (typeof v === "number") out += String(v);
    else if (typeof v === "bigint") out += pyStr(v);
    else if (v instanceof PyFloat) out += floatJson(v.value);
    else if (v instanceof Markup) out += quote(v.text, ensureAscii);
    else if (level >= TRACK_DEPTH && (Array.isArray(v) || v instanceof Map)) tracked(v, level);
    else container(v, level);
  };
  // A value that holds itself nests without end: past TRACK_DEPTH the walk keeps its path, and a value met again on
  // it is Python's `ValueError: Circular reference detected`. Shallow data pays nothing for the check.
  const path = new Set<unknown>();
  const tracked = (v: unknown[] | Map<unknown, unknown>, level: number): void => {
    if (path.has(v)) fail("ValueError", "Circular reference detected");
    path.add(v);
    try {
      container(v, level);
    } finally {
      path.delete(v);
    }
  };
  /** The newline and indentation before an item at `level`, one string per level. */
  const breaks: string[] = [];
  const lineBreak = (level: number): string => {
    let text = breaks[level];
    if (text === undefined) {
      checkLength(level * (indent as string).length);
      text = `\n${(indent as string).repeat(level)}`;
      breaks[level] = text;
    }
    return text;
  };
  const separator = (index: number, level: number): void => {
    if (index > 0) out += itemSeparator;
    if (indent !== null) out += lineBreak(level + 1);
  };
  const close = (mark: string, level: number): void => {
    if (indent !== null) out += lineBreak(level);
    out += mark;
  };
  const container = (v: unknown, level: number): void => {
    if (Array.isArray(v)) {
      if (v.length === 0) {
        out += "[]";
        return;
      }
      out += "[";
      for (let i = 0; i < v.length; i++) {
        separator(i, level);
        write(v[i], level + 1);
      }
      close("]", level);
      return;
    }
    if (v instanceof Map) {
      if (v.size === 0) {
        out += "{}";
        return;
      }
      let entries: Iterable<[unknown, unknown]> = v;
      if (sortKeys) entries = pythonSorted(Array.from(v), (entry) => entry[0], false);
      out += "{";
      let i = 0;
      for (const [k, item] of entries) {
        separator(i++, level);
        out += quote(keyText(k), ensureAscii) + keySeparator;
        write(item, level + 1);
      }
      close("}", level);
      return;
    }
    fail("TypeError", `Object of type ${typeName(v)} is not JSON serializable`);
  };
  write(value, 0);
  return out;
}

/**
 * transformers' `tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False)` arguments, read as
 * Python's `json.dumps` reads them (an int indent is that many spaces, a separators pair is unpacked).
 *
 * @example
 * tojsonOptions({ ensureAscii: false, indent: 2, separators: null, sortKeys: false }).indent; // "  "
 */
export function tojsonOptions(args: {
  ensureAscii: unknown;
  indent: unknown;
  separators: unknown;
  sortKeys: unknown;
}): PythonJsonOptions {
  const options: PythonJsonOptions = {
    ensureAscii: truthy(args.ensureAscii),
    sortKeys: truthy(args.sortKeys),
  };
  const indent = args.indent;
  if (indent !== null && indent !== undefined) {
    options.indent = isStr(indent) ? strText(indent) : strText(mul(" ", indent) as string);
  }
  const separators = args.separators;
  if (separators !== null && separators !== undefined) {
    if (!Array.isArray(separators) && !isStr(separators))
      fail("TypeError", `cannot unpack non-iterable ${typeName(separators)} object`);
    const pair = iterate(separators);
    if (pair.length > 2) fail("ValueError", "too many values to unpack (expected 2)");
    if (pair.length < 2) fail("ValueError", `not enough values to unpack (expected 2, got ${pair.length})`);
    options.separators = [pyStr(pair[0]), pyStr(pair[1])];
  }
  return options;
}

/** Reads `tojson`'s keyword arguments from engine values (positional: ensure_ascii, indent, separators, sort_keys). */
export function jsonOptionsFromKwargs(
  kwargs: Map<string, unknown> | null,
  positional: unknown[],
): PythonJsonOptions {
  const get = (name: string, index: number, fallback: unknown) =>
    kwargs?.has(name) ? kwargs.get(name) : index < positional.length ? positional[index] : fallback;
  return tojsonOptions({
    ensureAscii: get("ensure_ascii", 0, false),
    indent: get("indent", 1, null),
    separators: get("separators", 2, null),
    sortKeys: get("sort_keys", 3, false),
  });
}
