import { codePoints, getAttribute, getItem, iterate, pyLen } from "./access.js";
import { argument as arg, capitalizeString, replaceString, stripString } from "./methods.js";
import { add, eq, order, toNumber } from "./operators.js";
import { jsonOptionsFromKwargs, pythonJsonDumps } from "./python-json.js";
import { pyRepr, pyStr } from "./python-repr.js";
import { fail } from "./template-error.js";
import {
  Namespace,
  normalizeInt,
  PyFloat,
  PyFunction,
  truthy,
  tuple,
  typeName,
  Undefined,
} from "./values.js";

/** A filter: `value|name(args)`. */
export type Filter = (
  value: unknown,
  args: unknown[],
  kwargs: Map<string, unknown> | null,
  env: Builtins,
) => unknown;
/** A test: `value is name(args)`. */
export type Test = (
  value: unknown,
  args: unknown[],
  kwargs: Map<string, unknown> | null,
  env: Builtins,
) => boolean;

/** The filters and tests an environment offers. */
export interface Builtins {
  filters: Map<string, Filter>;
  tests: Map<string, Test>;
}

/** Jinja's `make_attrgetter`: `a.b.0` looks up each part, numbers as indexes. */
function attrGetter(
  attribute: unknown,
  postprocess?: (v: unknown) => unknown,
  fallback?: unknown,
): (item: unknown) => unknown {
  const parts =
    typeof attribute === "string"
      ? attribute.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p))
      : attribute === null || attribute === undefined
        ? []
        : [attribute];
  return (item) => {
    let value = item;
    for (const part of parts) value = getItem(value, part);
    if (fallback !== undefined && value instanceof Undefined) value = fallback;
    return postprocess ? postprocess(value) : value;
  };
}

function ignoreCase(value: unknown): unknown {
  return typeof value === "string" ? value.toLowerCase() : value;
}

function sortBy<T>(items: T[], key: (item: T) => unknown, reverse: boolean): T[] {
  const keyed = items.map((item, i) => ({ item, key: key(item), i }));
  keyed.sort((a, b) => {
    const c = order(a.key, b.key);
    if (c !== 0) return reverse ? -c : c;
    return a.i - b.i;
  });
  return keyed.map((k) => k.item);
}

function toStr(value: unknown): string {
  return pyStr(value);
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/'/g, "&#39;")
    .replace(/"/g, "&#34;");
}

function toInteger(value: unknown, fallback: unknown, base: number): unknown {
  if (typeof value === "number" || typeof value === "bigint") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof PyFloat)
    return Number.isFinite(value.value) ? normalizeInt(BigInt(Math.trunc(value.value))) : fallback;
  if (typeof value === "string") {
    const text = value.trim().replace(/_/g, "");
    if (base === 10 && /^[+-]?\d+$/.test(text)) return normalizeInt(BigInt(text));
    if (base !== 10) {
      const parsed = Number.parseInt(text, base);
      if (!Number.isNaN(parsed)) return parsed;
    }
    const asFloat = Number(text);
    if (text !== "" && Number.isFinite(asFloat) && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) {
      return normalizeInt(BigInt(Math.trunc(asFloat)));
    }
  }
  return fallback;
}

function toFloat(value: unknown, fallback: unknown): unknown {
  if (value instanceof PyFloat) return value;
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean")
    return new PyFloat(toNumber(value));
  if (typeof value === "string") {
    const text = value.trim().replace(/_/g, "");
    if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return new PyFloat(Number(text));
    if (/^[+-]?(inf|infinity)$/i.test(text)) return new PyFloat(text.startsWith("-") ? -Infinity : Infinity);
    if (/^[+-]?nan$/i.test(text)) return new PyFloat(Number.NaN);
  }
  return fallback;
}

function roundHalfEven(value: number, digits: number): number {
  const factor = 10 ** digits;
  const scaled = value * factor;
  const floor = Math.floor(scaled);
  const diff = scaled - floor;
  let rounded: number;
  if (diff > 0.5) rounded = floor + 1;
  else if (diff < 0.5) rounded = floor;
  else rounded = floor % 2 === 0 ? floor : floor + 1;
  return rounded / factor;
}

function selectOrReject(
  value: unknown,
  args: unknown[],
  kwargs: Map<string, unknown> | null,
  env: Builtins,
  keep: boolean,
  lookupAttribute: boolean,
): unknown[] {
  if (!truthy(value)) return [];
  let offset = 0;
  let transform = (x: unknown) => x;
  if (lookupAttribute) {
    if (args.length === 0) fail("FilterArgumentError", "Missing parameter for attribute name");
    transform = attrGetter(args[0]);
    offset = 1;
  }
  const testName = args[offset];
  const testArgs = args.slice(offset + 1);
  let check: (x: unknown) => boolean;
  if (testName === undefined) check = truthy;
  else {
    const test = env.tests.get(String(testName));
    if (test === undefined) fail("TemplateRuntimeError", `No test named ${pyRepr(testName)}.`);
    check = (x) => test(x, testArgs, kwargs, env);
  }
  return iterate(value).filter((item) => check(transform(item)) === keep);
}

function firstOf(value: unknown): unknown {
  const items = iterate(value);
  return items.length > 0 ? items[0] : new Undefined({ hint: "No first item, sequence was empty." });
}

function minMax(value: unknown, args: unknown[], kwargs: Map<string, unknown> | null, sign: number): unknown {
  const caseSensitive = truthy(arg(args, kwargs, 0, "case_sensitive", false));
  const key = attrGetter(arg(args, kwargs, 1, "attribute", null), caseSensitive ? undefined : ignoreCase);
  const items = iterate(value);
  if (items.length === 0) return new Undefined({ hint: "No aggregated item, sequence was empty." });
  let best = items[0];
  let bestKey = key(best);
  for (const item of items.slice(1)) {
    const k = key(item);
    if (order(k, bestKey) * sign > 0) {
      best = item;
      bestKey = k;
    }
  }
  return best;
}

function sum(items: unknown[], start: unknown): unknown {
  let total = start;
  for (const item of items) total = add(total, item);
  return total;
}

function indent(text: string, width: unknown, first: boolean, blank: boolean): string {
  const indention = typeof width === "string" ? width : " ".repeat(Number(width));
  const lines = splitLines(`${text}\n`);
  let out: string;
  if (blank) out = lines.join(`\n${indention}`);
  else {
    out = lines.shift() ?? "";
    if (lines.length > 0) out += `\n${lines.map((line) => (line ? indention + line : line)).join("\n")}`;
  }
  return first ? indention + out : out;
}

function splitLines(text: string): string[] {
  const out = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  if (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}

const WORD_BEGIN = /([-\s({[<]+)/;

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

function listOf(value: unknown): unknown[] {
  return iterate(value).slice();
}

const filters = new Map<string, Filter>();
const tests = new Map<string, Test>();

filters.set("abs", (v) => {
  if (typeof v === "number") return Math.abs(v);
  if (typeof v === "bigint") return v < 0n ? -v : v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof PyFloat) return new PyFloat(Math.abs(v.value));
  return fail("TypeError", `bad operand type for abs(): '${typeName(v)}'`);
});
filters.set("attr", (v, args) => getAttribute(v, String(args[0])));
filters.set("batch", (v, args, kwargs) => {
  const size = Number(arg(args, kwargs, 0, "linecount", 1));
  const fillWith = arg(args, kwargs, 1, "fill_with", null);
  const items = iterate(v);
  const out: unknown[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  const lastBatch = out[out.length - 1];
  if (fillWith !== null && lastBatch && lastBatch.length < size)
    while (lastBatch.length < size) lastBatch.push(fillWith);
  return out;
});
filters.set("capitalize", (v) => capitalizeString(toStr(v)));
filters.set("center", (v, args, kwargs) => {
  const width = Number(arg(args, kwargs, 0, "width", 80));
  const text = toStr(v);
  const length = codePoints(text).length;
  if (length >= width) return text;
  const pad = width - length;
  const left = Math.floor(pad / 2) + (pad & width & 1);
  return " ".repeat(left) + text + " ".repeat(pad - left);
});
filters.set("length", (v) => pyLen(v));
filters.set("count", (v) => pyLen(v));
const defaultFilter: Filter = (v, args, kwargs) => {
  const fallback = arg(args, kwargs, 0, "default_value", "");
  const boolean = truthy(arg(args, kwargs, 1, "boolean", false));
  if (v instanceof Undefined || (boolean && !truthy(v))) return fallback;
  return v;
};
filters.set("default", defaultFilter);
filters.set("d", defaultFilter);
filters.set("dictsort", (v, args, kwargs) => {
  const caseSensitive = truthy(arg(args, kwargs, 0, "case_sensitive", false));
  const by = arg(args, kwargs, 1, "by", "key");
  const reverse = truthy(arg(args, kwargs, 2, "reverse", false));
  const position =
    by === "key"
      ? 0
      : by === "value"
        ? 1
        : fail("FilterArgumentError", 'You can only sort by either "key" or "value"');
  if (!(v instanceof Map)) {
    if (v instanceof Undefined) v.fail();
    fail("AttributeError", `'${typeName(v)}' object has no attribute 'items'`);
  }
  const items = Array.from(v, ([k, x]) => tuple([k, x]));
  return sortBy(items, (item) => (caseSensitive ? item[position] : ignoreCase(item[position])), reverse);
});
const escapeFilter: Filter = (v) => escapeHtml(toStr(v));
filters.set("escape", escapeFilter);
filters.set("e", escapeFilter);
filters.set("forceescape", escapeFilter);
filters.set("first", (v) => firstOf(v));
filters.set("last", (v) => {
  const items = iterate(v);
  return items.length > 0
    ? items[items.length - 1]
    : new Undefined({ hint: "No last item, sequence was empty." });
});
filters.set("float", (v, args, kwargs) => toFloat(v, arg(args, kwargs, 0, "default", new PyFloat(0))));
filters.set("int", (v, args, kwargs) =>
  toInteger(v, arg(args, kwargs, 0, "default", 0), Number(arg(args, kwargs, 1, "base", 10))),
);
filters.set("indent", (v, args, kwargs) =>
  indent(
    toStr(v),
    arg(args, kwargs, 0, "width", 4),
    truthy(arg(args, kwargs, 1, "first", false)),
    truthy(arg(args, kwargs, 2, "blank", false)),
  ),
);
filters.set("join", (v, args, kwargs) => {
  const separator = arg(args, kwargs, 0, "d", "");
  const attribute = arg(args, kwargs, 1, "attribute", null);
  let items = iterate(v);
  if (attribute !== null) items = items.map(attrGetter(attribute));
  return items.map(toStr).join(toStr(separator));
});
filters.set("list", (v) => listOf(v));
filters.set("lower", (v) => toStr(v).toLowerCase());
filters.set("upper", (v) => toStr(v).toUpperCase());
filters.set("items", (v) => {
  if (v instanceof Undefined) return [];
  if (!(v instanceof Map)) fail("TypeError", "Can only get item pairs from a mapping.");
  return Array.from(v, ([k, x]) => tuple([k, x]));
});
filters.set("map", (v, args, kwargs, env) => {
  const items = iterate(v);
  if (args.length === 0 && kwargs?.has("attribute")) {
    const getter = attrGetter(
      kwargs.get("attribute"),
      undefined,
      kwargs.has("default") ? kwargs.get("default") : undefined,
    );
    return items.map(getter);
  }
  const name = args[0];
  const filter = env.filters.get(String(name));
  if (filter === undefined) fail("TemplateRuntimeError", `No filter named ${pyRepr(name)}.`);
  const rest = args.slice(1);
  return items.map((item) => filter(item, rest, kwargs, env));
});
filters.set("min", (v, args, kwargs) => minMax(v, args, kwargs, -1));
filters.set("max", (v, args, kwargs) => minMax(v, args, kwargs, 1));
filters.set("reject", (v, args, kwargs, env) => selectOrReject(v, args, kwargs, env, false, false));
filters.set("select", (v, args, kwargs, env) => selectOrReject(v, args, kwargs, env, true, false));
filters.set("rejectattr", (v, args, kwargs, env) => selectOrReject(v, args, kwargs, env, false, true));
filters.set("selectattr", (v, args, kwargs, env) => selectOrReject(v, args, kwargs, env, true, true));
filters.set("replace", (v, args, kwargs) => {
  const count = arg(args, kwargs, 2, "count", null);
  return replaceString(toStr(v), toStr(args[0]), toStr(args[1]), count === null ? -1 : Number(count));
});
filters.set("reverse", (v) => {
  if (typeof v === "string") return codePoints(v).reverse().join("");
  return iterate(v).slice().reverse();
});
filters.set("round", (v, args, kwargs) => {
  const precision = Number(arg(args, kwargs, 0, "precision", 0));
  const method = arg(args, kwargs, 1, "method", "common");
  const x = toNumber(v);
  if (Number.isNaN(x) && !(v instanceof PyFloat))
    fail("TypeError", `type ${typeName(v)} doesn't define __round__ method`);
  const factor = 10 ** precision;
  if (method === "ceil") return new PyFloat(Math.ceil(x * factor) / factor);
  if (method === "floor") return new PyFloat(Math.floor(x * factor) / factor);
  if (method !== "common") fail("FilterArgumentError", "method must be common, ceil or floor");
  const rounded = roundHalfEven(x, precision);
  return v instanceof PyFloat ? new PyFloat(rounded) : rounded;
});
filters.set("safe", (v) => v);
filters.set("sort", (v, args, kwargs) => {
  const reverse = truthy(arg(args, kwargs, 0, "reverse", false));
  const caseSensitive = truthy(arg(args, kwargs, 1, "case_sensitive", false));
  const key = attrGetter(arg(args, kwargs, 2, "attribute", null), caseSensitive ? undefined : ignoreCase);
  return sortBy(iterate(v).slice(), key, reverse);
});
filters.set("string", (v) => toStr(v));
filters.set("sum", (v, args, kwargs) => {
  const attribute = arg(args, kwargs, 0, "attribute", null);
  let items = iterate(v);
  if (attribute !== null) items = items.map(attrGetter(attribute));
  return sum(items, arg(args, kwargs, 1, "start", 0));
});
filters.set("title", (v) => jinjaTitle(toStr(v)));
filters.set("trim", (v, args, kwargs) => stripString(toStr(v), arg(args, kwargs, 0, "chars", null), "both"));
filters.set("truncate", (v, args, kwargs) => {
  const text = toStr(v);
  const length = Number(arg(args, kwargs, 0, "length", 255));
  const killwords = truthy(arg(args, kwargs, 1, "killwords", false));
  const end = toStr(arg(args, kwargs, 2, "end", "..."));
  const leeway = Number(arg(args, kwargs, 3, "leeway", 5));
  const cps = codePoints(text);
  if (cps.length <= length + leeway) return text;
  const head = cps.slice(0, length - codePoints(end).length).join("");
  if (killwords) return head + end;
  const at = head.lastIndexOf(" ");
  return (at === -1 ? head : head.slice(0, at)) + end;
});
filters.set("unique", (v, args, kwargs) => {
  const caseSensitive = truthy(arg(args, kwargs, 0, "case_sensitive", false));
  const key = attrGetter(arg(args, kwargs, 1, "attribute", null), caseSensitive ? undefined : ignoreCase);
  const seen: unknown[] = [];
  const out: unknown[] = [];
  for (const item of iterate(v)) {
    const k = key(item);
    if (!seen.some((s) => eq(s, k))) {
      seen.push(k);
      out.push(item);
    }
  }
  return out;
});
filters.set("wordcount", (v) => (toStr(v).match(/\w+/gu) ?? []).length);
filters.set("tojson", (v, args, kwargs) => pythonJsonDumps(v, jsonOptionsFromKwargs(kwargs, args)));
filters.set("pprint", (v) => pyRepr(v));

tests.set("defined", (v) => !(v instanceof Undefined));
tests.set("undefined", (v) => v instanceof Undefined);
tests.set("none", (v) => v === null);
tests.set("boolean", (v) => typeof v === "boolean");
tests.set("false", (v) => v === false);
tests.set("true", (v) => v === true);
tests.set("integer", (v) => typeof v === "number" || typeof v === "bigint");
tests.set("float", (v) => v instanceof PyFloat);
tests.set(
  "number",
  (v) => typeof v === "number" || typeof v === "bigint" || typeof v === "boolean" || v instanceof PyFloat,
);
tests.set("string", (v) => typeof v === "string");
tests.set("mapping", (v) => v instanceof Map);
tests.set(
  "iterable",
  (v) => typeof v === "string" || Array.isArray(v) || v instanceof Map || v instanceof Undefined,
);
tests.set(
  "sequence",
  (v) => typeof v === "string" || Array.isArray(v) || v instanceof Map || v instanceof Undefined,
);
tests.set("callable", (v) => v instanceof PyFunction);
tests.set("sameas", (v, args) => v === args[0] || (v === null && args[0] === null));
tests.set("escaped", () => false);
tests.set("lower", (v) => typeof v === "string" && /\p{Ll}/u.test(v) && !/\p{Lu}/u.test(v));
tests.set("upper", (v) => typeof v === "string" && /\p{Lu}/u.test(v) && !/\p{Ll}/u.test(v));
const parity = (v: unknown, remainder: number) => {
  if (typeof v === "number") return Math.abs(v % 2) === remainder;
  if (typeof v === "bigint") return (v % 2n === 0n ? 0 : 1) === remainder;
  return fail("TypeError", `unsupported operand type(s) for %: '${typeName(v)}' and 'int'`);
};
tests.set("odd", (v) => parity(v, 1));
tests.set("even", (v) => parity(v, 0));
tests.set("divisibleby", (v, args) => toNumber(v) % toNumber(args[0]) === 0);
const equal: Test = (v, args) => eq(v, args[0]);
for (const name of ["eq", "equalto", "=="]) tests.set(name, equal);
const notEqual: Test = (v, args) => !eq(v, args[0]);
for (const name of ["ne", "!="]) tests.set(name, notEqual);
for (const name of ["lt", "lessthan", "<"]) tests.set(name, (v, args) => order(v, args[0], "<") < 0);
for (const name of ["le", "<="]) tests.set(name, (v, args) => order(v, args[0], "<=") <= 0);
for (const name of ["gt", "greaterthan", ">"]) tests.set(name, (v, args) => order(v, args[0], ">") > 0);
for (const name of ["ge", ">="]) tests.set(name, (v, args) => order(v, args[0], ">=") >= 0);
tests.set("in", (v, args) => {
  const container = args[0];
  if (typeof container === "string") return typeof v === "string" && container.includes(v);
  if (Array.isArray(container)) return container.some((x) => eq(x, v));
  if (container instanceof Map) return container.has(v);
  return fail("TypeError", `argument of type '${typeName(container)}' is not iterable`);
});
tests.set("filter", (v, _args, _kwargs, env) => typeof v === "string" && env.filters.has(v));
tests.set("test", (v, _args, _kwargs, env) => typeof v === "string" && env.tests.has(v));

/** Jinja's built-in filters and tests, plus transformers' `tojson`. */
export function defaultBuiltins(): Builtins {
  return { filters: new Map(filters), tests: new Map(tests) };
}

/** Jinja's default globals: `range`, `dict`, `namespace`, `joiner`, `cycler`. */
export function defaultGlobals(): Map<string, unknown> {
  const globals = new Map<string, unknown>();
  globals.set(
    "range",
    new PyFunction("range", (args) => {
      const ints = args.map((a) => {
        if (typeof a === "number") return a;
        if (typeof a === "boolean") return a ? 1 : 0;
        if (a instanceof Undefined) return a.fail();
        return fail("TypeError", `'${typeName(a)}' object cannot be interpreted as an integer`);
      });
      let start = 0;
      let stop: number;
      let step = 1;
      if (ints.length === 1) stop = ints[0] as number;
      else {
        start = ints[0] as number;
        stop = ints[1] as number;
        step = ints[2] ?? 1;
      }
      if (step === 0) fail("ValueError", "range() arg 3 must not be zero");
      const out: number[] = [];
      if (step > 0) for (let i = start; i < stop; i += step) out.push(i);
      else for (let i = start; i > stop; i += step) out.push(i);
      if (out.length > 100000)
        fail("OverflowError", "Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).");
      return out;
    }),
  );
  globals.set(
    "dict",
    new PyFunction("dict", (args, kwargs) => {
      const out = new Map<unknown, unknown>();
      if (args[0] instanceof Map) for (const [k, v] of args[0]) out.set(k, v);
      if (kwargs) for (const [k, v] of kwargs) out.set(k, v);
      return out;
    }),
  );
  globals.set(
    "namespace",
    new PyFunction("namespace", (args, kwargs) => {
      const attributes = new Map<string, unknown>();
      if (args[0] instanceof Map) for (const [k, v] of args[0]) attributes.set(String(k), v);
      if (kwargs) for (const [k, v] of kwargs) attributes.set(k, v);
      return new Namespace(attributes);
    }),
  );
  globals.set(
    "joiner",
    new PyFunction("joiner", (args) => {
      const separator = args[0] ?? ", ";
      let used = false;
      return new PyFunction("joiner", () => {
        if (!used) {
          used = true;
          return "";
        }
        return separator;
      });
    }),
  );
  globals.set(
    "cycler",
    new PyFunction("cycler", (items) => {
      let position = 0;
      const cycler = new Map<string, unknown>();
      cycler.set("next", new PyFunction("next", () => items[position++ % items.length]));
      return cycler;
    }),
  );
  return globals;
}
