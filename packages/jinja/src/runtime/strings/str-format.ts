import { lateBound } from "../late-bound.js";
import { escapeText, Markup } from "../markup.js";
import { pyAscii, pyRepr, pyStr } from "../python-repr.js";
import { fail } from "../template-error.js";
import { isTuple } from "../tuple.js";
import { formatValue } from "./format-spec.js";

/**
 * `str.format` and `str.format_map` as Jinja's sandbox runs them: Python's `string.Formatter` (its error texts:
 * `IndexError: tuple index out of range`, `KeyError: 'x'`), with attributes and items looked up through the
 * sandbox (`{0.x}` finds a dict's key, `{0.__class__}` is refused), and a Markup receiver escaping every field.
 */

interface Field {
  literal: string;
  name: string | null;
  spec: string;
  conversion: string | null;
}

/** CPython's `MarkupIterator`: literal text and replacement fields. */
function parseFormat(format: string): Field[] {
  const out: Field[] = [];
  const n = format.length;
  let i = 0;
  while (i < n) {
    let literal = "";
    let markup = false;
    while (i < n) {
      const c = format[i++] as string;
      if (c === "{" || c === "}") {
        const atEnd = i >= n;
        if (c === "}" && (atEnd || format[i] !== "}"))
          fail("ValueError", "Single '}' encountered in format string");
        if (atEnd && c === "{") fail("ValueError", "Single '{' encountered in format string");
        if (format[i] === c) {
          literal += c;
          i++;
          break;
        }
        markup = true;
        break;
      }
      literal += c;
    }
    if (!markup) {
      out.push({ literal, name: null, spec: "", conversion: null });
      continue;
    }
    // The field name runs to ':', '!' or '}' ('[…]' skipped whole); a spec after it may nest balanced braces.
    let depth = 1;
    let inName = true;
    const start = i;
    while (i < n && depth > 0) {
      const c = format[i++];
      if (inName && c === "[") {
        while (i < n && format[i] !== "]") i++;
      } else if (c === "{") {
        if (inName) fail("ValueError", "unexpected '{' in field name");
        depth++;
      } else if (c === "}") depth--;
      else if (inName && (c === ":" || c === "!")) inName = false;
    }
    if (depth > 0) fail("ValueError", "expected '}' before end of string");
    out.push({ literal, ...parseField(format.slice(start, i - 1)) });
  }
  return out;
}

function parseField(field: string): { name: string; spec: string; conversion: string | null } {
  let i = 0;
  let c = "";
  while (i < field.length) {
    c = field[i++] as string;
    if (c === "{") fail("ValueError", "unexpected '{' in field name");
    if (c === "[") {
      while (i < field.length && field[i] !== "]") i++;
      continue;
    }
    if (c === ":" || c === "!") break;
    c = "";
  }
  if (c !== ":" && c !== "!") return { name: field, spec: "", conversion: null };
  const name = field.slice(0, i - 1);
  let conversion: string | null = null;
  if (c === "!") {
    if (i >= field.length) fail("ValueError", "end of string while looking for conversion specifier");
    conversion = field[i++] as string;
    if (i < field.length && field[i++] !== ":") fail("ValueError", "expected ':' after conversion specifier");
  }
  return { name, spec: field.slice(i), conversion };
}

/** `_string.formatter_field_name_split`: the first name (an int when all digits) and the `.attr` / `[key]` chain. */
function splitFieldName(name: string): {
  first: string | number;
  rest: { attr: boolean; key: string | number }[];
} {
  let i = 0;
  while (i < name.length && name[i] !== "." && name[i] !== "[") i++;
  const head = name.slice(0, i);
  const first = /^\d+$/.test(head) ? Number(head) : head;
  const rest: { attr: boolean; key: string | number }[] = [];
  while (i < name.length) {
    const c = name[i++];
    if (c === ".") {
      const start = i;
      while (i < name.length && name[i] !== "." && name[i] !== "[") i++;
      const attr = name.slice(start, i);
      if (attr === "") fail("ValueError", "Empty attribute in format string");
      rest.push({ attr: true, key: attr });
    } else if (c === "[") {
      const start = i;
      while (i < name.length && name[i] !== "]") i++;
      if (i >= name.length) fail("ValueError", "Missing ']' in format string");
      const key = name.slice(start, i);
      i++;
      if (key === "") fail("ValueError", "Empty attribute in format string");
      rest.push({ attr: false, key: /^\d+$/.test(key) ? Number(key) : key });
      if (i < name.length && name[i] !== "." && name[i] !== "[")
        fail("ValueError", "Only '.' or '[' may follow ']' in format field specifier");
    } else fail("ValueError", "Only '.' or '[' may follow ']' in format field specifier");
  }
  return { first, rest };
}

function convert(value: unknown, conversion: string | null): unknown {
  if (conversion === null) return value;
  if (conversion === "s") return pyStr(value);
  if (conversion === "r") return pyRepr(value);
  if (conversion === "a") return pyAscii(value);
  return fail("ValueError", `Unknown conversion specifier ${conversion}`);
}

interface Context {
  args: unknown[];
  kwargs: Map<unknown, unknown>;
  escaping: boolean;
}

function lookup(context: Context, key: string | number): unknown {
  if (typeof key === "number") {
    if (key >= context.args.length) fail("IndexError", "tuple index out of range");
    return context.args[key];
  }
  const value = context.kwargs.get(key);
  if (value === undefined && !context.kwargs.has(key)) fail("KeyError", pyRepr(key));
  return value;
}

function formatField(value: unknown, spec: string, escaping: boolean): string {
  if (!escaping) return formatValue(value, spec);
  if (value instanceof Markup) {
    if (spec !== "") fail("ValueError", "Unsupported format specification for Markup.");
    return value.text;
  }
  return escapeText(formatValue(value, spec));
}

function vformat(
  format: string,
  context: Context,
  depth: number,
  autoIndex: number | false,
): [string, number | false] {
  if (depth < 0) fail("ValueError", "Max string recursion exceeded");
  let out = "";
  let auto = autoIndex;
  for (const field of parseFormat(format)) {
    out += field.literal;
    if (field.name === null) continue;
    let name = field.name;
    if (name === "") {
      if (auto === false)
        fail("ValueError", "cannot switch from manual field specification to automatic field numbering");
      name = String(auto);
      auto += 1;
    } else if (/^\d+$/.test(name)) {
      if (auto !== false && auto !== 0)
        fail("ValueError", "cannot switch from manual field specification to automatic field numbering");
      auto = false;
    }
    const { first, rest } = splitFieldName(name);
    let value = lookup(context, first);
    for (const part of rest)
      value = part.attr
        ? lateBound.getAttribute(value, part.key as string)
        : lateBound.getItem(value, part.key);
    value = convert(value, field.conversion);
    const [spec, nextAuto] = vformat(field.spec, context, depth - 1, auto);
    auto = nextAuto;
    out += formatField(value, spec, context.escaping);
  }
  return [out, auto];
}

/**
 * `receiver.format(*args, **kwargs)` in Jinja's sandbox.
 *
 * @example
 * formatString("{} and {x}", ["a"], new Map([["x", "b"]])); // "a and b"
 */
export function formatString(
  receiver: string | Markup,
  args: unknown[],
  kwargs: Map<string, unknown> | null,
): string | Markup {
  const escaping = receiver instanceof Markup;
  const text = escaping ? receiver.text : receiver;
  const [out] = vformat(text, { args, kwargs: kwargs ?? new Map(), escaping }, 2, 0);
  return escaping ? new Markup(out) : out;
}

/**
 * `receiver.format_map(mapping)` in Jinja's sandbox.
 *
 * @example
 * formatMap("{a}", new Map([["a", 1]])); // "1"
 */
export function formatMap(receiver: string | Markup, mapping: unknown): string | Markup {
  const escaping = receiver instanceof Markup;
  const text = escaping ? receiver.text : receiver;
  const kwargs = mapping instanceof Map ? mapping : new Map<unknown, unknown>();
  if (!(mapping instanceof Map) && !isTuple(mapping)) {
    // Python would index the object itself; only dicts are mappings a template can build.
    if (parseFormat(text).some((f) => f.name !== null))
      fail("TypeError", `'${mapping === null ? "NoneType" : typeof mapping}' object is not subscriptable`);
  }
  const [out] = vformat(text, { args: [], kwargs, escaping }, 2, 0);
  return escaping ? new Markup(out) : out;
}
