import { attributeError, codePoints, iterate } from "./access.js";
import { escapeText, isStr, Markup, strText } from "./markup.js";
import { checkArity } from "./method-arity.js";
import { encodeText } from "./py-bytes.js";
import { NON_PRINTABLE, pyStr } from "./python-repr.js";
import { formatMap, formatString } from "./str-format.js";
import { fail } from "./template-error.js";
import { isTuple } from "./tuple.js";
import { normalizeInt, tuple, typeName, Undefined } from "./values.js";

/** Python's `str` methods, with Python's semantics, arguments and errors. */

/** Python's whitespace (`str.isspace`). */
export const PY_WHITESPACE =
  "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const LEADING_WS = new RegExp(`^[${PY_WHITESPACE}]+`);
const TRAILING_WS = new RegExp(`[${PY_WHITESPACE}]+$`);
const WS_RUN = new RegExp(`[${PY_WHITESPACE}]+`);
const IS_WS = new RegExp(`^[${PY_WHITESPACE}]+$`);
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;

/** The `str` methods a template can call. */
export const STRING_METHODS: ReadonlySet<string> = new Set([
  "encode",
  "capitalize",
  "casefold",
  "center",
  "count",
  "endswith",
  "expandtabs",
  "find",
  "format",
  "format_map",
  "index",
  "isalnum",
  "isalpha",
  "isascii",
  "isdecimal",
  "isdigit",
  "isidentifier",
  "islower",
  "isnumeric",
  "isprintable",
  "isspace",
  "istitle",
  "isupper",
  "join",
  "ljust",
  "lower",
  "lstrip",
  "maketrans",
  "partition",
  "removeprefix",
  "removesuffix",
  "replace",
  "rfind",
  "rindex",
  "rjust",
  "rpartition",
  "rsplit",
  "rstrip",
  "split",
  "splitlines",
  "startswith",
  "strip",
  "swapcase",
  "title",
  "translate",
  "upper",
  "zfill",
]);

/** The methods whose result markupsafe wraps back into a Markup. */
const MARKUP_RESULT = new Set([
  "capitalize",
  "title",
  "lower",
  "upper",
  "replace",
  "ljust",
  "rjust",
  "lstrip",
  "rstrip",
  "center",
  "strip",
  "translate",
  "expandtabs",
  "swapcase",
  "zfill",
  "casefold",
  "removeprefix",
  "removesuffix",
  "split",
  "rsplit",
  "splitlines",
  "partition",
  "rpartition",
]);

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

function stringArgument(value: unknown, message: string): string {
  if (typeof value === "string") return value;
  if (value instanceof Markup) return value.text;
  if (value instanceof Undefined) value.fail();
  return fail("TypeError", message);
}

/** An `int` argument (`__index__`): numbers, bigints and booleans. */
export function indexArgument(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Undefined) value.fail();
  return fail("TypeError", `'${typeName(value)}' object cannot be interpreted as an integer`);
}

function sliceArgument(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return indexArgument(value);
  if (value instanceof Undefined) value.fail();
  return fail("TypeError", "slice indices must be integers or None or have an __index__ method");
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
  const set = new Set(codePoints(stringArgument(chars, `${method} arg must be None or str`)));
  const cps = codePoints(text);
  let start = 0;
  let end = cps.length;
  if (side !== "right") while (start < end && set.has(cps[start] as string)) start++;
  if (side !== "left") while (end > start && set.has(cps[end - 1] as string)) end--;
  return cps.slice(start, end).join("");
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
  const separator = stringArgument(sep, `must be str or None, not ${typeName(sep)}`);
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
    const last = new RegExp(`[${PY_WHITESPACE}]+(?=[^${PY_WHITESPACE}]*$)`);
    while (rest.length > 0) {
      if (out.length === maxsplit) {
        out.unshift(rest);
        return out;
      }
      const m = last.exec(rest);
      if (m === null) {
        out.unshift(rest);
        break;
      }
      out.unshift(rest.slice(m.index + m[0].length));
      rest = rest.slice(0, m.index);
    }
    return out;
  }
  const separator = stringArgument(sep, `must be str or None, not ${typeName(sep)}`);
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

const CASED = /\p{Cased}/u;
const UPPER = /\p{Uppercase}/u;
const LOWER = /\p{Lowercase}/u;
const TITLE = /\p{Lt}/u;
const TITLECASE: Record<string, string> = {
  Ǆ: "ǅ",
  ǅ: "ǅ",
  ǆ: "ǅ",
  Ǉ: "ǈ",
  ǈ: "ǈ",
  ǉ: "ǈ",
  Ǌ: "ǋ",
  ǋ: "ǋ",
  ǌ: "ǋ",
  Ǳ: "ǲ",
  ǲ: "ǲ",
  ǳ: "ǲ",
};

/** A character's titlecase (its uppercase, but `ǆ` → `ǅ` and `ß` → `Ss`). */
function titleChar(ch: string): string {
  const special = TITLECASE[ch];
  if (special !== undefined) return special;
  const upper = ch.toUpperCase();
  if (upper.length <= 2 && codePoints(upper).length === 1) return upper;
  const cps = codePoints(upper);
  return (cps[0] as string) + cps.slice(1).join("").toLowerCase();
}

/** Python's `str.title`. */
export function titleString(text: string): string {
  let out = "";
  let previousCased = false;
  for (const ch of text) {
    out += previousCased ? ch.toLowerCase() : titleChar(ch);
    previousCased = CASED.test(ch);
  }
  return out;
}

/** Python's `str.capitalize`. */
export function capitalizeString(text: string): string {
  const cps = codePoints(text);
  if (cps.length === 0) return "";
  return titleChar(cps[0] as string) + cps.slice(1).join("").toLowerCase();
}

function isTitle(text: string): boolean {
  let cased = false;
  let previousCased = false;
  for (const ch of text) {
    if (UPPER.test(ch) || TITLE.test(ch)) {
      if (previousCased) return false;
      previousCased = true;
      cased = true;
    } else if (LOWER.test(ch)) {
      if (!previousCased) return false;
      previousCased = true;
      cased = true;
    } else previousCased = false;
  }
  return cased;
}

function isCaseOnly(text: string, want: RegExp, refuse: RegExp): boolean {
  let cased = false;
  for (const ch of text) {
    if (refuse.test(ch) || TITLE.test(ch)) return false;
    if (want.test(ch)) cased = true;
  }
  return cased;
}

// Characters outside Nd that Python counts as digits (superscripts, circled and parenthesized digits…).
const OTHER_DIGITS =
  /[\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490\u24ea\u24f5-\u24fd\u24ff\u2776-\u277e\u2780-\u2788\u278a-\u2792\u{1f100}-\u{1f10a}]/u;
const CJK_NUMERALS = /[〇零一二三四五六七八九十百千万億兆壱弐参拾佰仟萬贰叁肆伍陆柒捌玖]/u;
const DIGIT = new RegExp(`^(?:\\p{Nd}|${OTHER_DIGITS.source})+$`, "u");
const NUMERIC = new RegExp(`^(?:\\p{N}|${CJK_NUMERALS.source})+$`, "u");
const ALNUM = new RegExp(`^(?:\\p{L}|\\p{N}|${CJK_NUMERALS.source})+$`, "u");

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

/** CPython's `ADJUST_INDICES`: start and end of a search window over `length` code points. */
function window(length: number, startArg: unknown, endArg: unknown): { start: number; end: number } {
  let start = sliceArgument(startArg) ?? 0;
  let end = sliceArgument(endArg) ?? length;
  if (end > length) end = length;
  else if (end < 0) end = Math.max(0, end + length);
  if (start < 0) start = Math.max(0, start + length);
  return { start, end };
}

function affix(text: string, args: unknown[], method: "startswith" | "endswith"): boolean {
  const what = args[0];
  const cps = codePoints(text);
  const { start, end } = window(cps.length, args[1], args[2]);
  const candidates = isTuple(what) ? what : [what];
  for (const candidate of candidates) {
    if (!isStr(candidate)) {
      if (candidate instanceof Undefined) candidate.fail();
      if (isTuple(what))
        fail("TypeError", `tuple for ${method} must only contain str, not ${typeName(candidate)}`);
      fail("TypeError", `${method} first arg must be str or a tuple of str, not ${typeName(candidate)}`);
    }
    const sub = codePoints(strText(candidate));
    if (end - start < sub.length || start > cps.length) continue;
    const from = method === "startswith" ? start : end - sub.length;
    if (sub.every((c, i) => cps[from + i] === c)) return true;
  }
  return false;
}

function search(text: string, name: string, args: unknown[]): number {
  const sub = codePoints(stringArgument(args[0], `must be str, not ${typeName(args[0])}`));
  const cps = codePoints(text);
  const { start, end } = window(cps.length, args[1], args[2]);
  const hay = cps.slice(start, end).join("");
  if (name === "count") {
    if (start > cps.length) return 0;
    if (sub.length === 0) return end >= start ? end - start + 1 : 0;
    return hay.split(sub.join("")).length - 1;
  }
  if (start > cps.length || end - start < sub.length) return -1;
  const needle = sub.join("");
  const at = name.startsWith("r") ? hay.lastIndexOf(needle) : hay.indexOf(needle);
  if (at === -1) return -1;
  return codePoints(hay.slice(0, at)).length + start;
}

function pad(text: string, args: unknown[], name: string): string {
  const width = indexArgument(args[0]);
  let fill = " ";
  if (args.length > 1) {
    const given = args[1];
    if (!isStr(given)) fail("TypeError", `${name}() argument 2 must be str, not ${typeName(given)}`);
    fill = strText(given);
    if (codePoints(fill).length !== 1)
      fail("TypeError", "The fill character must be exactly one character long");
  }
  const length = codePoints(text).length;
  if (length >= width) return text;
  const total = width - length;
  if (name === "ljust") return text + fill.repeat(total);
  if (name === "rjust") return fill.repeat(total) + text;
  const left = Math.floor(total / 2) + (total & width & 1);
  return fill.repeat(left) + text + fill.repeat(total - left);
}

function expandTabs(text: string, tabsize: number): string {
  let out = "";
  let column = 0;
  for (const ch of text) {
    if (ch === "\t") {
      if (tabsize > 0) {
        const spaces = tabsize - (column % tabsize);
        out += " ".repeat(spaces);
        column += spaces;
      }
    } else {
      out += ch;
      column = ch === "\n" || ch === "\r" ? 0 : column + 1;
    }
  }
  return out;
}

function splitLines(text: string, keepends: boolean): string[] {
  const out: string[] = [];
  LINE_BREAK.lastIndex = 0;
  let last = 0;
  for (let m = LINE_BREAK.exec(text); m !== null; m = LINE_BREAK.exec(text)) {
    out.push(text.slice(last, keepends ? m.index + m[0].length : m.index));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function translateString(text: string, table: unknown): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    let mapped: unknown;
    if (table instanceof Map) {
      if (!table.has(code)) {
        out += ch;
        continue;
      }
      mapped = table.get(code);
    } else if (Array.isArray(table)) {
      if (code >= table.length) {
        out += ch;
        continue;
      }
      mapped = table[code];
    } else return fail("TypeError", `'${typeName(table)}' object is not subscriptable`);
    if (mapped === null) continue;
    if (typeof mapped === "number") out += String.fromCodePoint(mapped);
    else if (isStr(mapped)) out += strText(mapped);
    else fail("TypeError", "character mapping must return integer, None or str");
  }
  return out;
}

function makeTrans(args: unknown[]): Map<unknown, unknown> {
  const out = new Map<unknown, unknown>();
  if (args.length === 1) {
    const table = args[0];
    if (!(table instanceof Map))
      fail("TypeError", "if you give only one argument to maketrans it must be a dict");
    for (const [k, v] of table) {
      if (isStr(k)) {
        const cps = codePoints(strText(k));
        if (cps.length !== 1) fail("ValueError", "string keys in translate table must be of length 1");
        out.set((cps[0] as string).codePointAt(0), v);
      } else if (typeof k === "number") out.set(k, v);
      else fail("TypeError", "keys in translate table must be strings or integers");
    }
    return out;
  }
  const from = codePoints(stringArgument(args[0], "maketrans() argument 1 must be str"));
  const to = codePoints(stringArgument(args[1], "maketrans() argument 2 must be str"));
  if (from.length !== to.length)
    fail("ValueError", "the first two maketrans arguments must have equal length");
  from.forEach((c, i) => {
    out.set(c.codePointAt(0), (to[i] as string).codePointAt(0));
  });
  if (args.length > 2) {
    for (const c of codePoints(stringArgument(args[2], "maketrans() argument 3 must be str")))
      out.set(c.codePointAt(0), null);
  }
  return out;
}

function strMethod(
  text: string,
  name: string,
  args: unknown[],
  kwargs: Map<string, unknown> | null,
  receiver: string | Markup,
): unknown {
  switch (name) {
    case "strip":
    case "lstrip":
    case "rstrip":
      return stripString(
        text,
        args[0],
        name === "strip" ? "both" : name === "lstrip" ? "left" : "right",
        name,
      );
    case "split":
    case "rsplit": {
      const sep = argument(args, kwargs, 0, "sep", null);
      const maxsplit = indexArgument(argument(args, kwargs, 1, "maxsplit", -1));
      return name === "split" ? splitString(text, sep, maxsplit) : rsplitString(text, sep, maxsplit);
    }
    case "startswith":
    case "endswith":
      return affix(text, args, name);
    case "upper":
      return text.toUpperCase();
    case "lower":
      return text.toLowerCase();
    case "casefold":
      return Array.from(text, (c) => c.toUpperCase().toLowerCase()).join("");
    case "title":
      return titleString(text);
    case "capitalize":
      return capitalizeString(text);
    case "swapcase":
      return Array.from(text, (c) =>
        UPPER.test(c) ? c.toLowerCase() : LOWER.test(c) ? c.toUpperCase() : c,
      ).join("");
    case "replace": {
      const old = stringArgument(args[0], `replace() argument 1 must be str, not ${typeName(args[0])}`);
      const replacement = stringArgument(
        args[1],
        `replace() argument 2 must be str, not ${typeName(args[1])}`,
      );
      return replaceString(text, old, replacement, args.length > 2 ? indexArgument(args[2]) : -1);
    }
    case "find":
    case "rfind":
    case "count":
      return search(text, name, args);
    case "index":
    case "rindex": {
      const at = search(text, name === "index" ? "find" : "rfind", args);
      if (at === -1) fail("ValueError", "substring not found");
      return at;
    }
    case "join": {
      const items = iterate(args[0]);
      const parts = items.map((item, i) => {
        if (receiver instanceof Markup) return item instanceof Markup ? item.text : escapeText(pyStr(item));
        if (!isStr(item))
          fail("TypeError", `sequence item ${i}: expected str instance, ${typeName(item)} found`);
        return strText(item);
      });
      return parts.join(text);
    }
    case "splitlines":
      return splitLines(text, Boolean(argument(args, kwargs, 0, "keepends", false)));
    case "isdigit":
      return DIGIT.test(text);
    case "isdecimal":
      return text.length > 0 && /^\p{Nd}+$/u.test(text);
    case "isnumeric":
      return NUMERIC.test(text);
    case "isalpha":
      return text.length > 0 && /^\p{L}+$/u.test(text);
    case "isalnum":
      return ALNUM.test(text) || (text.length > 0 && Array.from(text).every((c) => DIGIT.test(c)));
    case "isascii":
      return /^[\x00-\x7f]*$/.test(text);
    case "isidentifier":
      return /^[\p{XID_Start}_]\p{XID_Continue}*$/u.test(text);
    case "isprintable":
      return !Array.from(text).some((c) => c !== " " && NON_PRINTABLE.test(c));
    case "isspace":
      return IS_WS.test(text);
    case "isupper":
      return isCaseOnly(text, UPPER, LOWER);
    case "islower":
      return isCaseOnly(text, LOWER, UPPER);
    case "istitle":
      return isTitle(text);
    case "zfill": {
      const width = indexArgument(args[0]);
      const length = codePoints(text).length;
      if (length >= width) return text;
      const sign = text[0] === "+" || text[0] === "-" ? (text[0] as string) : "";
      return sign + "0".repeat(width - length) + text.slice(sign.length);
    }
    case "center":
    case "ljust":
    case "rjust":
      return pad(text, args, name);
    case "expandtabs":
      return expandTabs(text, indexArgument(argument(args, kwargs, 0, "tabsize", 8)));
    case "removeprefix": {
      const prefix = stringArgument(args[0], `removeprefix() argument must be str, not ${typeName(args[0])}`);
      return prefix !== "" && text.startsWith(prefix) ? text.slice(prefix.length) : text;
    }
    case "removesuffix": {
      const suffix = stringArgument(args[0], `removesuffix() argument must be str, not ${typeName(args[0])}`);
      return suffix !== "" && text.endsWith(suffix) ? text.slice(0, -suffix.length) : text;
    }
    case "partition":
    case "rpartition": {
      const sep = stringArgument(args[0], `must be str, not ${typeName(args[0])}`);
      if (sep === "") fail("ValueError", "empty separator");
      const at = name === "partition" ? text.indexOf(sep) : text.lastIndexOf(sep);
      if (at === -1) return name === "partition" ? [text, "", ""] : ["", "", text];
      return [text.slice(0, at), sep, text.slice(at + sep.length)];
    }
    case "translate":
      return translateString(text, args[0]);
    case "maketrans":
      return makeTrans(args);
    case "encode":
      return encodeText(
        text,
        pyStr(argument(args, kwargs, 0, "encoding", "utf-8")),
        pyStr(argument(args, kwargs, 1, "errors", "strict")),
      );
    case "format":
      return formatString(receiver, args, kwargs);
    case "format_map":
      return formatMap(receiver, args[0]);
    default:
      return fail("AttributeError", `'str' object has no attribute '${name}'`);
  }
}

function wrap(value: unknown): unknown {
  if (typeof value === "string") return new Markup(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? new Markup(v) : v));
  return value;
}

/**
 * Calls `text.name(…)` for a `str` (or a Markup: string results stay Markup, joined and formatted values are
 * escaped, as markupsafe does).
 *
 * @example
 * callStringMethod("a,b", "split", [","], null); // ["a", "b"]
 */
export function callStringMethod(
  receiver: string | Markup,
  name: string,
  args: unknown[],
  kwargs: Map<string, unknown> | null,
): unknown {
  checkArity("str", name, args, kwargs);
  const text = typeof receiver === "string" ? receiver : receiver.text;
  let result = strMethod(text, name, args, kwargs, receiver);
  if (receiver instanceof Markup && (MARKUP_RESULT.has(name) || name === "join")) result = wrap(result);
  if ((name === "partition" || name === "rpartition") && Array.isArray(result)) return tuple(result);
  if (typeof result === "bigint") return normalizeInt(result);
  return result;
}

/**
 * `value.name(…)` where Python calls a `str` method on a value it was given (`s.splitlines()` in a filter):
 * Python's AttributeError when the value is not a string.
 *
 * @example
 * strMethodOf(5, "splitlines", []); // throws "AttributeError: 'int' object has no attribute 'splitlines'"
 */
export function strMethodOf(value: unknown, name: string, args: unknown[]): unknown {
  if (isStr(value)) return callStringMethod(value, name, args, null);
  return attributeError(value, name);
}
