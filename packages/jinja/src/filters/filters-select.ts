import { hashKey, iterable, iterate, unhashable } from "../runtime/access.js";
import { isStr, strText } from "../runtime/markup.js";
import { eq, floordiv, mod, mul } from "../runtime/operators.js";
import { DONE, generator, lazyGenerator, type Pull, puller, pureIterator } from "../runtime/py-iterator.js";
import { pyRepr } from "../runtime/python-repr.js";
import { pythonSorted } from "../runtime/python-sort.js";
import { isTuple, truthy, tuple, Undefined } from "../runtime/python-values.js";
import { indexArgument } from "../runtime/strings/str-methods.js";
import { fail } from "../runtime/template-error.js";
import { namedTuple } from "../runtime/tuple.js";
import { attrGetter, ignoreCase } from "./attribute-getter.js";
import { type Builtins, defineCallable, type Filter, type FilterCall, REQUIRED } from "./filter-registry.js";

/**
 * Jinja's lazy filters: `map`, `select`, `reject`, `selectattr`, `rejectattr`, `unique`, `batch`, `slice` and
 * `items` return generators, as in Python; nothing runs until they are iterated, and they iterate once.
 */

/** Pulls a value's items one at a time: a generator's next item, or a sequence's. */
function pullFrom(value: unknown): Pull {
  return puller(iterable(value));
}

/** `environment.call_filter(name, …)`: the filter, or Python's error for an unknown name. */
function filterNamed(env: Builtins, name: unknown): Filter {
  const filter = isStr(name) ? env.filters.get(strText(name)) : undefined;
  if (filter === undefined) fail("TemplateRuntimeError", unknownName("filter", name));
  return filter;
}

/** Jinja's message for an unknown filter or test name given at runtime. */
export function unknownName(kind: "filter" | "test", name: unknown): string {
  unhashable(name);
  const message = `No ${kind} named ${pyRepr(name)}.`;
  if (name instanceof Undefined)
    return `${message} (${name.message}; did you forget to quote the callable name?)`;
  return message;
}

function mapFunction(call: FilterCall): (item: unknown) => unknown {
  const { rest, extra, env } = call;
  if (rest.length === 0 && extra.has("attribute")) {
    const kwargs = new Map(extra);
    const attribute = kwargs.get("attribute");
    kwargs.delete("attribute");
    const fallback = kwargs.has("default") ? kwargs.get("default") : null;
    kwargs.delete("default");
    if (kwargs.size > 0)
      fail("FilterArgumentError", `Unexpected keyword argument ${pyRepr(kwargs.keys().next().value)}`);
    return attrGetter(attribute, undefined, fallback);
  }
  if (rest.length === 0) fail("FilterArgumentError", "map requires a filter argument");
  const filter = filterNamed(env, rest[0]);
  const args = rest.slice(1);
  const kwargs = extra.size > 0 ? extra : null;
  return (item) => filter(item, args, kwargs, env);
}

function selectFunction(call: FilterCall, lookupAttribute: boolean): (item: unknown) => unknown {
  const { rest, extra, env } = call;
  let offset = 0;
  let transform = (x: unknown) => x;
  if (lookupAttribute) {
    if (rest.length === 0) fail("FilterArgumentError", "Missing parameter for attribute name");
    transform = attrGetter(rest[0]);
    offset = 1;
  }
  if (rest.length <= offset) return (item) => truthy(transform(item));
  const name = rest[offset];
  const test = isStr(name) ? env.tests.get(strText(name)) : undefined;
  const args = rest.slice(offset + 1);
  const kwargs = extra.size > 0 ? extra : null;
  return (item) => {
    if (test === undefined) return fail("TemplateRuntimeError", unknownName("test", name));
    return test(transform(item), args, kwargs, env);
  };
}

const VARIADIC = [["value", REQUIRED]] as const;

function selecting(name: string, keep: boolean, lookupAttribute: boolean): Filter {
  return defineCallable({ name, passes: true, params: VARIADIC, varargs: true, varkw: true }, (call) => {
    const value = call.values[0];
    return lazyGenerator(
      name,
      () => {
        if (!truthy(value)) return () => DONE;
        const check = selectFunction(call, lookupAttribute);
        const pull = pullFrom(value);
        return () => {
          for (let item = pull(); item !== DONE; item = pull()) if (truthy(check(item)) === keep) return item;
          return DONE;
        };
      },
      () => {
        if (!truthy(value)) return [];
        const check = selectFunction(call, lookupAttribute);
        const out: unknown[] = [];
        const items = iterable(value);
        if (Array.isArray(items)) {
          for (let i = 0; i < items.length; i++) if (truthy(check(items[i])) === keep) out.push(items[i]);
        } else
          for (let item = items.next(); item !== DONE; item = items.next())
            if (truthy(check(item)) === keep) out.push(item);
        return out;
      },
    );
  });
}

function* unique(value: unknown, caseSensitive: unknown, attribute: unknown): Generator<unknown> {
  const getter = attrGetter(attribute, truthy(caseSensitive) ? undefined : ignoreCase);
  const seen: unknown[] = [];
  const seenKeys = new Set<unknown>();
  const pull = pullFrom(value);
  for (let item = pull(); item !== DONE; item = pull()) {
    const key = getter(item);
    unhashable(key);
    const canonical = hashKey(key);
    if (isTuple(key)) {
      if (seen.some((s) => eq(s, key))) continue;
      seen.push(key);
    } else {
      if (seenKeys.has(canonical)) continue;
      seenKeys.add(canonical);
    }
    yield item;
  }
}

function groupby(value: unknown, attribute: unknown, fallback: unknown, caseSensitive: unknown): unknown[] {
  const sensitive = truthy(caseSensitive);
  const expr = attrGetter(attribute, sensitive ? undefined : ignoreCase, fallback);
  const sorted = pythonSorted(iterate(value).slice(), expr, false);
  const groups: [unknown, unknown[]][] = [];
  for (const item of sorted) {
    const key = expr(item);
    const last = groups[groups.length - 1];
    if (last !== undefined && eq(last[0], key)) last[1].push(item);
    else groups.push([key, [item]]);
  }
  const output = sensitive ? null : attrGetter(attribute, undefined, fallback);
  return groups.map(([key, items]) =>
    namedTuple([output === null ? key : output(items[0]), items], ["grouper", "list"]),
  );
}

function* batch(value: unknown, linecount: unknown, fillWith: unknown): Generator<unknown> {
  let current: unknown[] = [];
  const pull = pullFrom(value);
  for (let item = pull(); item !== DONE; item = pull()) {
    if (eq(current.length, linecount)) {
      yield current;
      current = [];
    }
    current.push(item);
  }
  if (current.length > 0) {
    if (fillWith !== null && current.length < indexArgument(linecount)) {
      current = current.concat(mul([fillWith], indexArgument(linecount) - current.length) as unknown[]);
    }
    yield current;
  }
}

function* slices(value: unknown, count: unknown, fillWith: unknown): Generator<unknown> {
  const seq = iterate(value).slice();
  const length = seq.length;
  const perSlice = Number(floordiv(length, count));
  const withExtra = Number(mod(length, count));
  let offset = 0;
  const total = indexArgument(count);
  for (let n = 0; n < total; n++) {
    const start = offset + n * perSlice;
    if (n < withExtra) offset += 1;
    const end = offset + (n + 1) * perSlice;
    const part = seq.slice(start, end);
    if (fillWith !== null && n >= withExtra) part.push(fillWith);
    yield part;
  }
}

/** What `items` yields for a value: a mapping's `(key, value)` tuples, nothing for undefined. */
export function itemPairs(value: unknown): unknown[] {
  if (value instanceof Undefined) return [];
  if (!(value instanceof Map)) return fail("TypeError", "Can only get item pairs from a mapping.");
  const out = new Array<unknown>(value.size);
  let i = 0;
  for (const [k, v] of value) out[i++] = tuple([k, v]);
  return out;
}

/** The lazy filters, by name. */
export const SELECT_FILTERS: Record<string, Filter> = {
  map: defineCallable(
    { name: "sync_do_map", passes: true, params: VARIADIC, varargs: true, varkw: true },
    (call) => {
      const value = call.values[0];
      return lazyGenerator(
        "sync_do_map",
        () => {
          if (!truthy(value)) return () => DONE;
          const fn = mapFunction(call);
          const pull = pullFrom(value);
          return () => {
            const item = pull();
            return item === DONE ? DONE : fn(item);
          };
        },
        () => {
          if (!truthy(value)) return [];
          const fn = mapFunction(call);
          const items = iterable(value);
          if (Array.isArray(items)) return items.map((item) => fn(item));
          const out: unknown[] = [];
          for (let item = items.next(); item !== DONE; item = items.next()) out.push(fn(item));
          return out;
        },
      );
    },
  ),
  select: selecting("sync_do_select", true, false),
  reject: selecting("sync_do_reject", false, false),
  selectattr: selecting("sync_do_selectattr", true, true),
  rejectattr: selecting("sync_do_rejectattr", false, true),
  unique: defineCallable(
    {
      name: "sync_do_unique",
      passes: true,
      params: [
        ["value", REQUIRED],
        ["case_sensitive", false],
        ["attribute", null],
      ],
    },
    (c) => generator("sync_do_unique", () => unique(c.values[0], c.values[1], c.values[2])),
  ),
  groupby: defineCallable(
    {
      name: "sync_do_groupby",
      passes: true,
      params: [
        ["value", REQUIRED],
        ["attribute", REQUIRED],
        ["default", null],
        ["case_sensitive", false],
      ],
    },
    (c) => groupby(c.values[0], c.values[1], c.values[2], c.values[3]),
  ),
  batch: defineCallable(
    {
      name: "do_batch",
      params: [
        ["value", REQUIRED],
        ["linecount", REQUIRED],
        ["fill_with", null],
      ],
    },
    (c) => generator("do_batch", () => batch(c.values[0], c.values[1], c.values[2])),
  ),
  slice: defineCallable(
    {
      name: "sync_do_slice",
      params: [
        ["value", REQUIRED],
        ["slices", REQUIRED],
        ["fill_with", null],
      ],
    },
    (c) => generator("sync_do_slice", () => slices(c.values[0], c.values[1], c.values[2])),
  ),
  items: defineCallable({ name: "do_items", params: [["value", REQUIRED]] }, (c) =>
    pureIterator("generator", "do_items", () => itemPairs(c.values[0])),
  ),
};
