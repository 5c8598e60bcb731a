import { codePoints, iterate } from "./access.js";
import { eq } from "./operators.js";
import { pyStr } from "./python-repr.js";
import { fail } from "./template-error.js";
import { isTuple, PyFloat, tuple, typeName, Undefined } from "./values.js";

/** Methods of `str`, `dict` and `list` that templates call, with Python's semantics. */

/** Methods that mutate: the immutable sandbox refuses them. */
export const MUTATING_METHODS = new Set([
  "dict.clear",
  "dict.pop",
  "dict.popitem",
  "dict.setdefault",
  "dict.update",
  "list.append",
  "list.clear",
  "list.pop",
  "list.reverse",
  "list.insert",
  "list.sort",
  "list.extend",
  "list.remove",
]);

const STRING_METHODS = new Set([
  "strip",
  "lstrip",
  "rstrip",
  "split",
  "rsplit",
  "startswith",
  "endswith",
  "upper",
  "lower",
  "title",
  "capitalize",
  "swapcase",
  "casefold",
  "replace",
  "find",
  "rfind",
  "index",
  "rindex",
  "count",
  "join",
  "splitlines",
  "isdigit",
  "isdecimal",
  "isnumeric",
  "isalpha",
  "isalnum",
  "isspace",
  "isupper",
  "islower",
  "zfill",
  "center",
  "ljust",
  "rjust",
  "removeprefix",
  "removesuffix",
  "partition",
  "rpartition",
]);
const DICT_METHODS = new Set([
  "get",
  "items",
  "keys",
  "values",
  "copy",
  "clear",
  "pop",
  "popitem",
  "setdefault",
  "update",
]);
const LIST_METHODS = new Set([
  "index",
  "count",
  "copy",
  "append",
  "clear",
  "pop",
  "reverse",
  "insert",
  "sort",
  "extend",
  "remove",
]);
const TUPLE_METHODS = new Set(["index", "count"]);

/** True when Python's `getattr(obj, name)` finds a method. */
export function hasMethod(obj: unknown, name: string): boolean {
  if (typeof obj === "string") return STRING_METHODS.has(name);
  if (obj instanceof Map) return DICT_METHODS.has(name);
  if (Array.isArray(obj)) return isTuple(obj) ? TUPLE_METHODS.has(name) : LIST_METHODS.has(name);
  return false;
}

/** Python's whitespace (`str.isspace`). */
export const PY_WHITESPACE =
  "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const LEADING_WS = new RegExp(`^[${PY_WHITESPACE}]+`);
const TRAILING_WS = new RegExp(`[${PY_WHITESPACE}]+$`);
const WS_RUN = new RegExp(`[${PY_WHITESPACE}]+`);
const IS_WS = new RegExp(`^[${PY_WHITESPACE}]+$`);

/** A call's argument by position, else by keyword, else the fallback (Python's binding of one parameter). */
export function argument(
  args: unknown[],
  kwargs: Map<string, unknown> | null,
  index: number,
  name: string,
  fallback: unknown,
): unknown {
  if (index < args.length) return args[index];
  if (kwargs?.has(name)) return kwargs.get(name);
  return fallback;
}

function stringArgument(value: unknown, method: string): string {
  if (typeof value === "string") return value;
  if (value instanceof Undefined) value.fail();
  return fail("TypeError", `${method} arg must be None or str`);
}

/** Python's `str.strip` family. */
export function stripString(
  text: string,
  chars: unknown,
  side: "both" | "left" | "right",
  method = "strip",
): string {
  if (chars === null || chars === undefined) {
    let out = text;
    if (side !== "right") out = out.replace(LEADING_WS, "");
    if (side !== "left") out = out.replace(TRAILING_WS, "");
    return out;
  }
  const set = new Set(codePoints(stringArgument(chars, method)));
  const cps = codePoints(text);
  let start = 0;
  let end = cps.length;
  if (side !== "right") while (start < end && set.has(cps[start] as string)) start++;
  if (side !== "left") while (end > start && set.has(cps[end - 1] as string)) end--;
  return cps.slice(start, end).join("");
}

function toInt(value: unknown, fallback: number): number {
  if (value === null || value === undefined) return fallback;
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "bigint") return Number(value);
  return fail("TypeError", `'${typeName(value)}' object cannot be interpreted as an integer`);
}

/** Python's `str.split`. */
export function splitString(text: string, sep: unknown, maxsplit: number): string[] {
  if (sep === null || sep === undefined) {
    const out: string[] = [];
    let rest = text.replace(LEADING_WS, "");
    while (rest.length > 0) {
      if (maxsplit >= 0 && out.length === maxsplit) {
        out.push(rest);
        return out;
      }
      const m = WS_RUN.exec(rest);
      if (m === null) {
        out.push(rest);
        break;
      }
      out.push(rest.slice(0, m.index));
      rest = rest.slice(m.index + m[0].length);
    }
    return out;
  }
  const separator = stringArgument(sep, "split");
  if (separator === "") fail("ValueError", "empty separator");
  if (maxsplit < 0) return text.split(separator);
  const out: string[] = [];
  let rest = text;
  while (out.length < maxsplit) {
    const at = rest.indexOf(separator);
    if (at === -1) break;
    out.push(rest.slice(0, at));
    rest = rest.slice(at + separator.length);
  }
  out.push(rest);
  return out;
}

function rsplitString(text: string, sep: unknown, maxsplit: number): string[] {
  if (maxsplit < 0) return splitString(text, sep, -1);
  if (sep === null || sep === undefined) {
    const out: string[] = [];
    let rest = text.replace(TRAILING_WS, "");
    while (rest.length > 0) {
      if (out.length === maxsplit) {
        out.unshift(rest);
        return out;
      }
      const m = new RegExp(`[${PY_WHITESPACE}]+(?=[^${PY_WHITESPACE}]*$)`).exec(rest);
      if (m === null) {
        out.unshift(rest);
        break;
      }
      out.unshift(rest.slice(m.index + m[0].length));
      rest = rest.slice(0, m.index);
    }
    return out;
  }
  const separator = stringArgument(sep, "rsplit");
  if (separator === "") fail("ValueError", "empty separator");
  const out: string[] = [];
  let rest = text;
  while (out.length < maxsplit) {
    const at = rest.lastIndexOf(separator);
    if (at === -1) break;
    out.unshift(rest.slice(at + separator.length));
    rest = rest.slice(0, at);
  }
  out.unshift(rest);
  return out;
}

function isCased(ch: string): boolean {
  return ch.toLowerCase() !== ch.toUpperCase();
}

/** Python's `str.title`. */
export function titleString(text: string): string {
  let out = "";
  let previousCased = false;
  for (const ch of text) {
    if (isCased(ch)) {
      out += previousCased ? ch.toLowerCase() : ch.toUpperCase();
      previousCased = true;
    } else {
      out += ch;
      previousCased = false;
    }
  }
  return out;
}

/** Python's `str.capitalize`. */
export function capitalizeString(text: string): string {
  const cps = codePoints(text);
  if (cps.length === 0) return "";
  return (cps[0] as string).toUpperCase() + cps.slice(1).join("").toLowerCase();
}

/** Python's `str.replace`. */
export function replaceString(text: string, old: string, replacement: string, count: number): string {
  if (count < 0) {
    if (old === "")
      return replacement + codePoints(text).join(replacement) + (text.length > 0 ? replacement : "");
    return text.split(old).join(replacement);
  }
  let out = "";
  let rest = text;
  let done = 0;
  if (old === "") {
    const cps = codePoints(text);
    let i = 0;
    while (done < count && i <= cps.length) {
      out += replacement + (cps[i] ?? "");
      i++;
      done++;
    }
    return out + cps.slice(i).join("");
  }
  while (done < count) {
    const at = rest.indexOf(old);
    if (at === -1) break;
    out += rest.slice(0, at) + replacement;
    rest = rest.slice(at + old.length);
    done++;
  }
  return out + rest;
}

function window(text: string, args: unknown[], from: number): { text: string; offset: number } {
  const cps = codePoints(text);
  const length = cps.length;
  const norm = (v: unknown, fallback: number) => {
    if (v === undefined || v === null) return fallback;
    let n = toInt(v, fallback);
    if (n < 0) n = Math.max(0, n + length);
    return Math.min(n, length);
  };
  const start = norm(args[from], 0);
  const end = norm(args[from + 1], length);
  return { text: cps.slice(start, Math.max(start, end)).join(""), offset: start };
}

function affix(text: string, args: unknown[], method: "startswith" | "endswith"): boolean {
  const what = args[0];
  const { text: part } = window(text, args, 1);
  const candidates = isTuple(what) ? what : [what];
  for (const candidate of candidates) {
    if (typeof candidate !== "string") {
      if (candidate instanceof Undefined) candidate.fail();
      fail("TypeError", `${method} first arg must be str or a tuple of str, not ${typeName(candidate)}`);
    }
    if (method === "startswith" ? part.startsWith(candidate) : part.endsWith(candidate)) return true;
  }
  return false;
}

function codePointIndex(text: string, unitIndex: number): number {
  return unitIndex < 0 ? unitIndex : Array.from(text.slice(0, unitIndex)).length;
}

function stringMethod(
  text: string,
  name: string,
  args: unknown[],
  kwargs: Map<string, unknown> | null,
): unknown {
  switch (name) {
    case "strip":
      return stripString(text, argument(args, kwargs, 0, "chars", null), "both", name);
    case "lstrip":
      return stripString(text, argument(args, kwargs, 0, "chars", null), "left", name);
    case "rstrip":
      return stripString(text, argument(args, kwargs, 0, "chars", null), "right", name);
    case "split":
      return splitString(
        text,
        argument(args, kwargs, 0, "sep", null),
        toInt(argument(args, kwargs, 1, "maxsplit", -1), -1),
      );
    case "rsplit":
      return rsplitString(
        text,
        argument(args, kwargs, 0, "sep", null),
        toInt(argument(args, kwargs, 1, "maxsplit", -1), -1),
      );
    case "startswith":
    case "endswith":
      return affix(text, args, name);
    case "upper":
      return text.toUpperCase();
    case "lower":
      return text.toLowerCase();
    case "casefold":
      return text.toLowerCase();
    case "title":
      return titleString(text);
    case "capitalize":
      return capitalizeString(text);
    case "swapcase":
      return Array.from(text, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");
    case "replace":
      return replaceString(
        text,
        stringArgument(args[0], "replace"),
        stringArgument(args[1], "replace"),
        toInt(argument(args, kwargs, 2, "count", -1), -1),
      );
    case "find":
    case "index":
    case "rfind":
    case "rindex": {
      const { text: part, offset } = window(text, args, 1);
      const sub = stringArgument(args[0], name);
      const at = name.startsWith("r") ? part.lastIndexOf(sub) : part.indexOf(sub);
      if (at === -1) {
        if (name.endsWith("index")) fail("ValueError", "substring not found");
        return -1;
      }
      return codePointIndex(part, at) + offset;
    }
    case "count": {
      const { text: part } = window(text, args, 1);
      const sub = stringArgument(args[0], name);
      if (sub === "") return codePoints(part).length + 1;
      return part.split(sub).length - 1;
    }
    case "join": {
      const items = iterate(args[0]);
      return items
        .map((item, i) => {
          if (typeof item !== "string") {
            fail("TypeError", `sequence item ${i}: expected str instance, ${typeName(item)} found`);
          }
          return item;
        })
        .join(text);
    }
    case "splitlines": {
      const keepends = Boolean(argument(args, kwargs, 0, "keepends", false));
      const out: string[] = [];
      const re = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;
      let last = 0;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        out.push(text.slice(last, keepends ? m.index + m[0].length : m.index));
        last = m.index + m[0].length;
      }
      if (last < text.length) out.push(text.slice(last));
      return out;
    }
    case "isdigit":
    case "isdecimal":
    case "isnumeric":
      return text.length > 0 && /^\p{Nd}+$/u.test(text);
    case "isalpha":
      return text.length > 0 && /^\p{L}+$/u.test(text);
    case "isalnum":
      return text.length > 0 && /^[\p{L}\p{N}]+$/u.test(text);
    case "isspace":
      return IS_WS.test(text);
    case "isupper":
      return /\p{Lu}/u.test(text) && !/\p{Ll}/u.test(text);
    case "islower":
      return /\p{Ll}/u.test(text) && !/\p{Lu}/u.test(text);
    case "zfill": {
      const width = toInt(args[0], 0);
      const length = codePoints(text).length;
      if (length >= width) return text;
      const sign = text[0] === "+" || text[0] === "-" ? (text[0] as string) : "";
      return sign + "0".repeat(width - length) + text.slice(sign.length);
    }
    case "center":
    case "ljust":
    case "rjust": {
      const width = toInt(args[0], 0);
      const fill = args[1] === undefined ? " " : stringArgument(args[1], name);
      const length = codePoints(text).length;
      if (length >= width) return text;
      const pad = width - length;
      if (name === "ljust") return text + fill.repeat(pad);
      if (name === "rjust") return fill.repeat(pad) + text;
      const left = Math.floor(pad / 2) + (pad & width & 1);
      return fill.repeat(left) + text + fill.repeat(pad - left);
    }
    case "removeprefix": {
      const prefix = stringArgument(args[0], name);
      return prefix !== "" && text.startsWith(prefix) ? text.slice(prefix.length) : text;
    }
    case "removesuffix": {
      const suffix = stringArgument(args[0], name);
      return suffix !== "" && text.endsWith(suffix) ? text.slice(0, -suffix.length) : text;
    }
    case "partition":
    case "rpartition": {
      const sep = stringArgument(args[0], name);
      if (sep === "") fail("ValueError", "empty separator");
      const at = name === "partition" ? text.indexOf(sep) : text.lastIndexOf(sep);
      if (at === -1) return name === "partition" ? tuple([text, "", ""]) : tuple(["", "", text]);
      return tuple([text.slice(0, at), sep, text.slice(at + sep.length)]);
    }
    default:
      return fail("AttributeError", `'str' object has no attribute '${name}'`);
  }
}

/** Calls `obj.name(...)` for a string, dict or list method. */
export function callMethod(
  obj: unknown,
  name: string,
  args: unknown[],
  kwargs: Map<string, unknown> | null,
): unknown {
  if (typeof obj === "string") return stringMethod(obj, name, args, kwargs);
  if (obj instanceof Map) {
    switch (name) {
      case "get": {
        const key = args[0];
        const value = getItemOrMissing(obj, key);
        return value === MISSING ? (args.length > 1 ? args[1] : null) : value;
      }
      case "items":
        return Array.from(obj, ([k, v]) => tuple([k, v]));
      case "keys":
        return Array.from(obj.keys());
      case "values":
        return Array.from(obj.values());
      case "copy":
        return new Map(obj);
      default:
        break;
    }
  }
  if (Array.isArray(obj)) {
    switch (name) {
      case "index": {
        const at = obj.findIndex((x) => eq(x, args[0]));
        if (at === -1) fail("ValueError", `${pyStrForError(args[0])} is not in list`);
        return at;
      }
      case "count":
        return obj.filter((x) => eq(x, args[0])).length;
      case "copy":
        return obj.slice();
      default:
        break;
    }
  }
  return fail("SecurityError", `access to attribute '${name}' of '${typeName(obj)}' object is unsafe.`);
}

function pyStrForError(value: unknown): string {
  return typeof value === "string" ? `'${value}'` : pyStr(value);
}

const MISSING = Symbol("missing");

function getItemOrMissing(map: Map<unknown, unknown>, key: unknown): unknown {
  if (Array.isArray(key) && !isTuple(key)) fail("TypeError", "unhashable type: 'list'");
  if (key instanceof Map) fail("TypeError", "unhashable type: 'dict'");
  if (map.has(key)) return map.get(key);
  if (key instanceof PyFloat && map.has(key.value)) return map.get(key.value);
  if (typeof key === "boolean" && map.has(key ? 1 : 0)) return map.get(key ? 1 : 0);
  return MISSING;
}
