import { attributeError, codePoints, isIterable, iterate, PySlice, pyLen } from "../runtime/access.js";
import { getItem } from "../runtime/attribute-access.js";
import { formatFixed } from "../runtime/float-format.js";
import { escapeText, isStr, Markup, striptagsText, strText } from "../runtime/markup.js";
import { add, mod, mul } from "../runtime/operators.js";
import { PyIterator } from "../runtime/py-iterator.js";
import { PyObject } from "../runtime/py-object.js";
import { pythonFloat } from "../runtime/python-convert.js";
import { pyRepr, pyStr } from "../runtime/python-repr.js";
import { isTuple, truthy, tuple, typeName, Undefined } from "../runtime/python-values.js";
import {
  callStringMethod,
  indexArgument,
  replaceString,
  stripString,
  strMethodOf,
} from "../runtime/strings/str-methods.js";
import { fail } from "../runtime/template-error.js";
import { defineCallable, defineUnary, type Filter, REQUIRED } from "./filter-registry.js";
import { pformat } from "./pprint.js";
import { tojsonOptions } from "./python-json.js";
import { wrapText } from "./textwrap.js";
import { tojsonText } from "./tojson-cache.js";
import { urlize } from "./urlize.js";

/** Jinja's string filters, as its `filters.py` defines them (autoescape off, as transformers sets it). */

/** markupsafe's `soft_str`: a Markup stays one, anything else becomes `str(value)`. */
export function softStr(value: unknown): string | Markup {
  return value instanceof Markup ? value : pyStr(value);
}

/** markupsafe's `escape(value)`. */
export function escapeValue(value: unknown): Markup {
  return value instanceof Markup ? value : new Markup(escapeText(pyStr(value)));
}

const method = (value: unknown, name: string, ...args: unknown[]) =>
  callStringMethod(softStr(value), name, args, null);

const one = (name: string, body: (value: unknown) => unknown): Filter =>
  defineUnary({ name, params: [["s", REQUIRED]] }, body);

const WORD_BEGIN = /([-\s({[<]+)/u;

function jinjaTitle(text: string): string {
  return text
    .split(WORD_BEGIN)
    .filter((item) => item !== "")
    .map((item) => {
      const cps = codePoints(item);
      return (cps[0] as string).toUpperCase() + cps.slice(1).join("").toLowerCase();
    })
    .join("");
}

function indent(s: unknown, width: unknown, first: boolean, blank: boolean): unknown {
  let indention: unknown = isStr(width) ? width : mul(" ", width);
  let newline: string | Markup = "\n";
  if (s instanceof Markup && !(indention instanceof Markup)) {
    indention = new Markup(strText(indention as string));
    newline = new Markup("\n");
  }
  if (Array.isArray(s) && !isTuple(s)) fail("AttributeError", "'list' object has no attribute 'splitlines'");
  if (isTuple(s)) fail("TypeError", `can only concatenate tuple (not "${typeName(newline)}") to tuple`);
  if (!isStr(s) && !(s instanceof Undefined))
    fail("TypeError", `unsupported operand type(s) for +=: '${typeName(s)}' and '${typeName(newline)}'`);
  const text = add(s, newline);
  const lines = strMethodOf(text, "splitlines", []) as (string | Markup)[];
  let out: unknown;
  if (blank) out = callStringMethod(add(newline, indention) as string, "join", [lines], null);
  else {
    out = lines.shift() ?? "";
    if (lines.length > 0) {
      const rest = lines.map((line) => (truthy(line) ? add(indention, line) : line));
      out = add(add(out, newline), callStringMethod(newline, "join", [rest], null));
    }
  }
  return first ? add(indention, out) : out;
}

function truncate(s: unknown, length: unknown, killwords: unknown, end: unknown, leeway: unknown): unknown {
  const lean = leeway === null ? 5 : indexArgument(leeway);
  const limit = indexArgument(length);
  const endLength = pyLen(end);
  if (!(limit >= endLength)) fail("AssertionError", `expected length >= ${endLength}, got ${limit}`);
  if (!(lean >= 0)) fail("AssertionError", `expected leeway >= 0, got ${lean}`);
  if (pyLen(s) <= limit + lean) return s;
  const head = getItem(s, new PySlice(null, limit - endLength, null));
  if (truthy(killwords)) return add(head, end);
  if (!isStr(head)) attributeError(head, "rsplit");
  const kept = (callStringMethod(head as string, "rsplit", [" ", 1], null) as unknown[])[0];
  return add(kept, end);
}

const SIZES = ["k", "M", "G", "T", "P", "E", "Z", "Y"];

function filesizeformat(value: unknown, binary: boolean): string {
  const bytes = pythonFloat(value);
  const base = binary ? 1024 : 1000;
  if (bytes === 1) return "1 Byte";
  if (bytes < base) {
    if (!Number.isFinite(bytes)) fail("OverflowError", "cannot convert float infinity to integer");
    return `${Math.trunc(bytes) === 0 ? 0 : Math.trunc(bytes)} Bytes`;
  }
  let unit = 0;
  let prefix = "";
  for (let i = 0; i < SIZES.length; i++) {
    unit = Number(BigInt(base) ** BigInt(i + 2));
    prefix = binary ? `${(SIZES[i] as string).toUpperCase()}iB` : `${SIZES[i]}B`;
    if (bytes < unit) break;
  }
  return `${formatFixed((base * bytes) / unit, 1)} ${prefix}`;
}

const ALWAYS_SAFE = /[A-Za-z0-9_.\-~]/;

function urlQuote(value: unknown, forQuery: boolean): string {
  const text = isStr(value) ? strText(value) : pyStr(value);
  let out = "";
  for (const byte of new TextEncoder().encode(text)) {
    const ch = String.fromCharCode(byte);
    if (byte < 0x80 && (ALWAYS_SAFE.test(ch) || (!forQuery && ch === "/"))) out += ch;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return forQuery ? out.replace(/%20/g, "+") : out;
}

/** `k, v = item`: Python's unpacking errors. */
function unpackPair(item: unknown): unknown[] {
  if (!isIterable(item)) fail("TypeError", `cannot unpack non-iterable ${typeName(item)} object`);
  const pair = iterate(item);
  if (pair.length > 2) fail("ValueError", "too many values to unpack (expected 2)");
  if (pair.length < 2) fail("ValueError", `not enough values to unpack (expected 2, got ${pair.length})`);
  return pair;
}

function urlencode(value: unknown): string {
  const iterable =
    Array.isArray(value) || value instanceof Map || value instanceof Undefined || value instanceof PyIterator;
  if (isStr(value) || (!iterable && !(value instanceof PyObject && value.pyType === "range")))
    return urlQuote(value, false);
  const items = value instanceof Map ? Array.from(value, ([k, v]) => tuple([k, v])) : iterate(value);
  return items
    .map((item) => {
      const pair = unpackPair(item);
      return `${urlQuote(pair[0], true)}=${urlQuote(pair[1], true)}`;
    })
    .join("&");
}

const ATTRIBUTE_KEY = /[\t\n\v\f\r\x1c-\x1f /=>]/;

function xmlattr(d: unknown, autospace: unknown): string {
  if (!(d instanceof Map)) {
    if (d instanceof Undefined) return d.fail();
    return attributeError(d, "items");
  }
  const items: string[] = [];
  for (const [key, value] of d) {
    if (value === null || value instanceof Undefined) continue;
    if (!isStr(key)) fail("TypeError", `expected string or bytes-like object, got '${typeName(key)}'`);
    if (ATTRIBUTE_KEY.test(strText(key)))
      fail("ValueError", `Invalid character in attribute name: ${pyRepr(key)}`);
    items.push(`${escapeValue(key).text}="${escapeValue(value).text}"`);
  }
  const out = items.join(" ");
  return truthy(autospace) && out !== "" ? ` ${out}` : out;
}

/** `tojson` with transformers' defaults: `ensure_ascii=False`, one line. */
const PLAIN_JSON = { ensureAscii: false, sortKeys: false } as const;

/** The string filters, by name. */
export const TEXT_FILTERS: Record<string, Filter> = {
  capitalize: one("do_capitalize", (v) => method(v, "capitalize")),
  center: defineCallable(
    {
      name: "do_center",
      params: [
        ["value", REQUIRED],
        ["width", 80],
      ],
    },
    (c) => method(c.values[0], "center", c.values[1]),
  ),
  escape: one("escape", escapeValue),
  e: one("escape", escapeValue),
  forceescape: defineCallable({ name: "do_forceescape", params: [["value", REQUIRED]] }, (c) => {
    const value = c.values[0];
    return new Markup(escapeText(value instanceof Markup ? value.text : pyStr(value)));
  }),
  format: defineCallable(
    { name: "do_format", params: [["value", REQUIRED]], varargs: true, varkw: true },
    (c) => {
      if (c.rest.length > 0 && c.extra.size > 0)
        fail("FilterArgumentError", "can't handle positional and keyword arguments at the same time");
      return mod(softStr(c.values[0]), c.extra.size > 0 ? new Map(c.extra) : tuple(c.rest));
    },
  ),
  indent: defineCallable(
    {
      name: "do_indent",
      params: [
        ["s", REQUIRED],
        ["width", 4],
        ["first", false],
        ["blank", false],
      ],
    },
    (c) => indent(c.values[0], c.values[1], truthy(c.values[2]), truthy(c.values[3])),
  ),
  lower: one("do_lower", (v) => (typeof v === "string" ? v.toLowerCase() : method(v, "lower"))),
  upper: one("do_upper", (v) => (typeof v === "string" ? v.toUpperCase() : method(v, "upper"))),
  replace: defineCallable(
    {
      name: "do_replace",
      passes: true,
      params: [
        ["s", REQUIRED],
        ["old", REQUIRED],
        ["new", REQUIRED],
        ["count", null],
      ],
    },
    (c) => {
      const [s, old, replacement, count] = c.values;
      if (!c.env.autoescape) {
        if (count === null) return replaceString(pyStr(s), pyStr(old), pyStr(replacement), -1);
        return callStringMethod(pyStr(s), "replace", [pyStr(old), pyStr(replacement), count], null);
      }
      // Autoescape on: a safe old or new text makes the subject safe first (escaped), as Jinja's do_replace
      // does; a Markup's replace then escapes the new text.
      const escapeFirst = old instanceof Markup || (replacement instanceof Markup && !(s instanceof Markup));
      const subject = escapeFirst ? escapeValue(s) : softStr(s);
      const args = [softStr(old), softStr(replacement), count === null ? -1 : count];
      return callStringMethod(subject, "replace", args, null);
    },
  ),
  safe: defineCallable({ name: "do_mark_safe", params: [["value", REQUIRED]] }, (c) => {
    const value = c.values[0];
    return value instanceof Markup ? value : new Markup(pyStr(value));
  }),
  string: one("soft_str", softStr),
  striptags: defineCallable({ name: "do_striptags", params: [["value", REQUIRED]] }, (c) =>
    striptagsText(c.values[0] instanceof Markup ? c.values[0].text : pyStr(c.values[0])),
  ),
  title: one("do_title", (v) => jinjaTitle(strText(softStr(v)))),
  trim: defineCallable(
    {
      name: "do_trim",
      params: [
        ["value", REQUIRED],
        ["chars", null],
      ],
    },
    (c) => method(c.values[0], "strip", c.values[1]),
    (value, args) =>
      typeof value === "string" && args.length === 0
        ? stripString(value, null, "both")
        : method(value, "strip", args.length > 0 ? args[0] : null),
  ),
  truncate: defineCallable(
    {
      name: "do_truncate",
      passes: true,
      params: [
        ["s", REQUIRED],
        ["length", 255],
        ["killwords", false],
        ["end", "..."],
        ["leeway", null],
      ],
    },
    (c) => truncate(c.values[0], c.values[1], c.values[2], c.values[3], c.values[4]),
  ),
  wordcount: one("do_wordcount", (v) => (strText(softStr(v)).match(/[\p{L}\p{N}_]+/gu) ?? []).length),
  wordwrap: defineCallable(
    {
      name: "do_wordwrap",
      passes: true,
      params: [
        ["s", REQUIRED],
        ["width", 79],
        ["break_long_words", true],
        ["wrapstring", null],
        ["break_on_hyphens", true],
      ],
    },
    (c) => {
      const [s, width, breakLong, wrapstring, hyphens] = c.values;
      const separator = wrapstring === null ? "\n" : strText(wrapstring as string);
      const lines = strMethodOf(s, "splitlines", []) as (string | Markup)[];
      const options = {
        width: indexArgument(width),
        breakLongWords: truthy(breakLong),
        breakOnHyphens: truthy(hyphens),
      };
      return lines.map((line) => wrapText(strText(line), options).join(separator)).join(separator);
    },
  ),
  urlencode: defineCallable({ name: "do_urlencode", params: [["value", REQUIRED]] }, (c) =>
    urlencode(c.values[0]),
  ),
  urlize: defineCallable(
    {
      name: "do_urlize",
      passes: true,
      params: [
        ["value", REQUIRED],
        ["trim_url_limit", null],
        ["nofollow", false],
        ["target", null],
        ["rel", null],
        ["extra_schemes", null],
      ],
    },
    (c) => {
      const [value, limit, nofollow, target, rel, extraSchemes] = c.values;
      const parts = new Set((rel === null ? "" : pyStr(rel)).split(/\s+/).filter((p) => p !== ""));
      if (truthy(nofollow)) parts.add("nofollow");
      parts.add("noopener");
      const schemes = extraSchemes === null ? [] : iterate(extraSchemes).map((s) => pyStr(s));
      for (const scheme of schemes) {
        if (!/^[\p{L}\p{N}_.+-]{2,}:\/{0,2}$/u.test(scheme))
          fail("FilterArgumentError", `'${scheme}' is not a valid URI scheme prefix.`);
      }
      // The text is escaped unless it is safe already; with autoescape on, the result is safe.
      const linked = urlize(pyStr(value), {
        trimUrlLimit: limit === null ? null : indexArgument(limit),
        rel: Array.from(parts).sort().join(" ") || null,
        target: target === null ? null : pyStr(target),
        extraSchemes: schemes,
        safe: value instanceof Markup,
      });
      return c.env.autoescape ? new Markup(linked) : linked;
    },
  ),
  xmlattr: defineCallable(
    {
      name: "do_xmlattr",
      passes: true,
      params: [
        ["d", REQUIRED],
        ["autospace", true],
      ],
    },
    (c) => {
      const attributes = xmlattr(c.values[0], c.values[1]);
      return c.env.autoescape ? new Markup(attributes) : attributes;
    },
  ),
  filesizeformat: defineCallable(
    {
      name: "do_filesizeformat",
      params: [
        ["value", REQUIRED],
        ["binary", false],
      ],
    },
    (c) => filesizeformat(c.values[0], truthy(c.values[1])),
  ),
  pprint: defineCallable({ name: "do_pprint", params: [["value", REQUIRED]] }, (c) => pformat(c.values[0])),
  tojson: defineCallable(
    {
      name: "tojson",
      params: [
        ["x", REQUIRED],
        ["ensure_ascii", false],
        ["indent", null],
        ["separators", null],
        ["sort_keys", false],
      ],
    },
    (c) => {
      const [value, ensureAscii, indentValue, separators, sortKeys] = c.values;
      return tojsonText(value, tojsonOptions({ ensureAscii, indent: indentValue, separators, sortKeys }));
    },
    (value, args) => {
      if (args.length === 0) return tojsonText(value, PLAIN_JSON);
      const [ensureAscii = false, indentValue = null, separators = null, sortKeys = false] = args;
      return tojsonText(value, tojsonOptions({ ensureAscii, indent: indentValue, separators, sortKeys }));
    },
  ),
};
