import { attributeError, codePoints, isIterable, iterate } from "../access.js";
import { escapeText, isStr, MARKUP_RESULT_METHODS, Markup, strText } from "../markup.js";
import { checkArity } from "../method-arity.js";
import { encodeText } from "../py-bytes.js";
import { NON_PRINTABLE, pyStr } from "../python-repr.js";
import { normalizeInt, tuple, typeName, Undefined } from "../python-values.js";
import { checkLength } from "../render-budget.js";
import { fail } from "../template-error.js";
import { isTuple } from "../tuple.js";
import { argument, IS_WS, indexArgument, sliceArgument, stringArgument } from "./str-arguments.js";
import {
  ALNUM,
  capitalizeString,
  DIGIT,
  isCaseOnly,
  isTitle,
  LOWER,
  NUMERIC,
  titleString,
  UPPER,
} from "./str-case.js";
import { formatMap, formatString } from "./str-format.js";
import {
  expandTabs,
  makeTrans,
  replaceString,
  rsplitString,
  splitLines,
  splitString,
  stripString,
  translateString,
} from "./str-split.js";

export { argument, indexArgument, PY_WHITESPACE } from "./str-arguments.js";
export { capitalizeString, titleString } from "./str-case.js";
export { replaceString, splitString, stripString } from "./str-split.js";

/** Python's `str` methods, with Python's semantics, arguments and errors. */

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
  checkLength(text.length + total);
  if (name === "ljust") return text + fill.repeat(total);
  if (name === "rjust") return fill.repeat(total) + text;
  const left = Math.floor(total / 2) + (total & width & 1);
  return fill.repeat(left) + text + fill.repeat(total - left);
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
      // str.join's own words; Markup.join maps escape() over it first, and map() words it as iter() does.
      if (!(receiver instanceof Markup) && !isIterable(args[0]))
        fail("TypeError", "can only join an iterable");
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
      checkLength(width);
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

/**
 * The arguments markupsafe escapes before a Markup's own method runs: `replace`'s new text and the fill character
 * of `ljust`, `rjust` and `center` (any value: `escape` makes a string of it). Others pass as they are.
 */
function escapedArguments(name: string, args: unknown[]): unknown[] {
  const at = name === "replace" || name === "ljust" || name === "rjust" || name === "center" ? 1 : -1;
  if (at === -1 || args.length <= at) return args;
  const value = args[at];
  const escaped = value instanceof Markup ? value.text : escapeText(pyStr(value));
  return args.map((arg, i) => (i === at ? escaped : arg));
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
  if (receiver instanceof Markup) args = escapedArguments(name, args);
  let result = strMethod(text, name, args, kwargs, receiver);
  if (receiver instanceof Markup && (MARKUP_RESULT_METHODS.has(name) || name === "join"))
    result = wrap(result);
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
