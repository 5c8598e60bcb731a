import { attributeError, iterate, pyLen } from "../runtime/access.js";
import { getAttributeOnly } from "../runtime/attribute-access.js";
import { DictView } from "../runtime/dict-view.js";
import { roundFloat, roundInteger } from "../runtime/float-format.js";
import { isStr, Markup, strText } from "../runtime/markup.js";
import { add, mul, order, truediv } from "../runtime/operators.js";
import { PyIterator, pureIterator } from "../runtime/py-iterator.js";
import { PyRange } from "../runtime/py-range.js";
import { intFromString, pythonFloat, pythonInt } from "../runtime/python-convert.js";
import { pyRepr, pyStr } from "../runtime/python-repr.js";
import { pythonSorted } from "../runtime/python-sort.js";
import {
  isTuple,
  normalizeInt,
  PyFloat,
  truthy,
  tuple,
  typeName,
  Undefined,
} from "../runtime/python-values.js";
import { indexArgument } from "../runtime/strings/str-methods.js";
import { fail, TemplateError } from "../runtime/template-error.js";
import { attrGetter, ignoreCase, multiAttrGetter } from "./attribute-getter.js";
import { defineBuiltin, defineCallable, defineUnary, type Filter, REQUIRED } from "./filter-registry.js";

/** Jinja's filters over sequences, numbers and mappings (`filters.py`, 3.1). */

function catchValue<T>(body: () => T, fallback: () => T, types: readonly string[]): T {
  try {
    return body();
  } catch (error) {
    if (TemplateError.isInstance(error) && types.includes(error.type)) return fallback();
    throw error;
  }
}

function toInt(value: unknown, fallback: unknown, base: unknown): unknown {
  return catchValue(
    () =>
      isStr(value) ? intFromString(strText(value), indexArgument(base), pyRepr(value)) : pythonInt(value),
    () =>
      catchValue(
        () => pythonInt(new PyFloat(pythonFloat(value))),
        () => fallback,
        ["TypeError", "ValueError"],
      ),
    ["TypeError", "ValueError"],
  );
}

function absolute(value: unknown): unknown {
  if (typeof value === "number") return Math.abs(value);
  if (typeof value === "bigint") return value < 0n ? -value : value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof PyFloat) return new PyFloat(Math.abs(value.value));
  return fail("TypeError", `bad operand type for abs(): '${typeName(value)}'`);
}

function roundValue(value: unknown, precision: unknown, method: unknown): unknown {
  if (method !== "common" && method !== "ceil" && method !== "floor")
    fail("FilterArgumentError", "method must be common, ceil or floor");
  if (method === "common") {
    const ndigits = indexArgument(precision);
    if (value instanceof PyFloat) return new PyFloat(roundFloat(value.value, ndigits));
    if (typeof value === "number" || typeof value === "bigint")
      return normalizeInt(roundInteger(BigInt(value), ndigits));
    if (typeof value === "boolean") return normalizeInt(roundInteger(BigInt(value ? 1 : 0), ndigits));
    return fail("TypeError", `type ${typeName(value)} doesn't define __round__ method`);
  }
  const scale = method === "ceil" ? Math.ceil : Math.floor;
  const factor = powerOfTen(precision);
  const scaled = mul(value, factor);
  if (
    !(scaled instanceof PyFloat) &&
    typeof scaled !== "number" &&
    typeof scaled !== "bigint" &&
    typeof scaled !== "boolean"
  )
    fail("TypeError", `must be real number, not ${typeName(scaled)}`);
  // math.floor and math.ceil of an int are the int itself: exact, however large.
  if (!(scaled instanceof PyFloat))
    return truediv(typeof scaled === "boolean" ? Number(scaled) : scaled, factor);
  const x = scaled.value;
  if (Number.isNaN(x)) fail("ValueError", "cannot convert float NaN to integer");
  if (!Number.isFinite(x)) fail("OverflowError", "cannot convert float infinity to integer");
  return truediv(normalizeInt(BigInt(scale(x))), factor);
}

/** `10 ** precision`, an int for a non-negative precision and a float otherwise. */
function powerOfTen(precision: unknown): unknown {
  const p = indexArgument(precision);
  return p >= 0 ? normalizeInt(10n ** BigInt(p)) : new PyFloat(10 ** p);
}

function first(value: unknown): unknown {
  if (value instanceof PyIterator) {
    const item = value.next();
    return typeof item === "symbol" ? new Undefined({ hint: "No first item, sequence was empty." }) : item;
  }
  const items = iterate(value);
  return items.length > 0 ? items[0] : new Undefined({ hint: "No first item, sequence was empty." });
}

function reversible(value: unknown): boolean {
  return (
    isStr(value) ||
    Array.isArray(value) ||
    value instanceof Map ||
    value instanceof PyRange ||
    value instanceof DictView ||
    value instanceof Undefined
  );
}

function last(value: unknown): unknown {
  if (!reversible(value)) fail("TypeError", `'${typeName(value)}' object is not reversible`);
  const items = iterate(value);
  if (items.length === 0) return new Undefined({ hint: "No last item, sequence was empty." });
  const item = items[items.length - 1];
  // reversed() reads a str subclass through __getitem__: Markup's wraps the character.
  return value instanceof Markup ? new Markup(item as string) : item;
}

/** The iterator Python's `reversed()` makes, by type. */
function reversedType(value: unknown): string {
  if (Array.isArray(value)) return isTuple(value) ? "reversed" : "list_reverseiterator";
  if (value instanceof PyRange) return "range_iterator";
  if (value instanceof Map) return "dict_reversekeyiterator";
  if (value instanceof DictView) {
    if (value.kind === "dict_keys") return "dict_reversekeyiterator";
    return value.kind === "dict_values" ? "dict_reversevalueiterator" : "dict_reverseitemiterator";
  }
  return "reversed";
}

function reverse(value: unknown): unknown {
  if (isStr(value)) {
    const text = Array.from(strText(value)).reverse().join("");
    return value instanceof Markup ? new Markup(text) : text;
  }
  if (reversible(value)) {
    const items = iterate(value).slice().reverse();
    return pureIterator(reversedType(value), "", () => items);
  }
  try {
    return iterate(value).slice().reverse();
  } catch (error) {
    if (TemplateError.isInstance(error) && error.type === "TypeError")
      return fail("FilterArgumentError", "argument must be iterable");
    throw error;
  }
}

function minMax(value: unknown, caseSensitive: unknown, attribute: unknown, max: boolean): unknown {
  const items = iterate(value);
  if (items.length === 0) return new Undefined({ hint: "No aggregated item, sequence was empty." });
  const key = attrGetter(attribute, truthy(caseSensitive) ? undefined : ignoreCase);
  let best = items[0];
  let bestKey = key(best);
  for (let i = 1; i < items.length; i++) {
    const item = items[i];
    const k = key(item);
    if (max ? order(k, bestKey, ">") > 0 : order(k, bestKey, "<") < 0) {
      best = item;
      bestKey = k;
    }
  }
  return best;
}

function sum(items: unknown[], start: unknown): unknown {
  if (isStr(start)) fail("TypeError", "sum() can't sum strings [use ''.join(seq) instead]");
  let total = start;
  for (const item of items) total = add(total, item);
  return total;
}

function dictsort(value: unknown, caseSensitive: unknown, by: unknown, reverseOrder: unknown): unknown {
  const position = by === "key" ? 0 : by === "value" ? 1 : -1;
  if (position === -1) fail("FilterArgumentError", 'You can only sort by either "key" or "value"');
  if (!(value instanceof Map)) {
    if (value instanceof Undefined) return value.fail();
    return attributeError(value, "items");
  }
  const items = Array.from(value, ([k, v]) => tuple([k, v]));
  const sensitive = truthy(caseSensitive);
  return pythonSorted(
    items,
    (item) => (sensitive ? item[position] : ignoreCase(item[position])),
    truthy(reverseOrder),
  );
}

function randomItem(value: unknown): unknown {
  if (
    value instanceof Map ||
    value instanceof DictView ||
    value instanceof PyIterator ||
    !(isStr(value) || Array.isArray(value) || value instanceof PyRange || value instanceof Undefined)
  )
    pyLen(value);
  const items = iterate(value);
  if (items.length === 0) return new Undefined({ hint: "No random item, sequence was empty." });
  return items[Math.floor(Math.random() * items.length)];
}

/** `default(value, default_value="", boolean=False)` (also `d`). */
const defaultFilter = defineCallable(
  {
    name: "do_default",
    params: [
      ["value", REQUIRED],
      ["default_value", ""],
      ["boolean", false],
    ],
  },
  (c) => {
    const [value, fallback, boolean] = c.values;
    return value instanceof Undefined || (truthy(boolean) && !truthy(value)) ? fallback : value;
  },
  (value, args) => {
    const fallback = args.length > 0 ? args[0] : "";
    return value instanceof Undefined || (args.length > 1 && truthy(args[1]) && !truthy(value))
      ? fallback
      : value;
  },
);

/** The sequence filters, by name. */
export const SEQUENCE_FILTERS: Record<string, Filter> = {
  abs: defineBuiltin("abs", absolute),
  attr: defineCallable(
    {
      name: "do_attr",
      passes: true,
      params: [
        ["obj", REQUIRED],
        ["name", REQUIRED],
      ],
    },
    (c) => getAttributeOnly(c.values[0], pyStr(c.values[1])),
  ),
  count: defineBuiltin("len", pyLen),
  length: defineBuiltin("len", pyLen),
  default: defaultFilter,
  d: defaultFilter,
  dictsort: defineCallable(
    {
      name: "do_dictsort",
      params: [
        ["value", REQUIRED],
        ["case_sensitive", false],
        ["by", "key"],
        ["reverse", false],
      ],
    },
    (c) => dictsort(c.values[0], c.values[1], c.values[2], c.values[3]),
  ),
  first: defineUnary({ name: "sync_do_first", passes: true, params: [["seq", REQUIRED]] }, first),
  last: defineUnary({ name: "do_last", passes: true, params: [["seq", REQUIRED]] }, last),
  float: defineCallable(
    {
      name: "do_float",
      params: [
        ["value", REQUIRED],
        ["default", new PyFloat(0)],
      ],
    },
    (c) =>
      catchValue(
        () => new PyFloat(pythonFloat(c.values[0])),
        () => c.values[1],
        ["TypeError", "ValueError"],
      ),
  ),
  int: defineCallable(
    {
      name: "do_int",
      params: [
        ["value", REQUIRED],
        ["default", 0],
        ["base", 10],
      ],
    },
    (c) => toInt(c.values[0], c.values[1], c.values[2]),
  ),
  join: defineCallable(
    {
      name: "sync_do_join",
      passes: true,
      params: [
        ["value", REQUIRED],
        ["d", ""],
        ["attribute", null],
      ],
    },
    (c) => {
      const [value, separator, attribute] = c.values;
      let items = iterate(value);
      if (attribute !== null) items = items.map(attrGetter(attribute));
      return items.map((item) => pyStr(item)).join(pyStr(separator));
    },
    (value, args) => {
      if (args.length > 1) {
        let items = iterate(value);
        if (args[1] !== null) items = items.map(attrGetter(args[1]));
        return items.map((item) => pyStr(item)).join(pyStr(args[0]));
      }
      const separator = args.length > 0 ? pyStr(args[0]) : "";
      return iterate(value)
        .map((item) => pyStr(item))
        .join(separator);
    },
  ),
  list: defineUnary({ name: "sync_do_list", params: [["value", REQUIRED]] }, (value) =>
    value instanceof PyIterator ? value.drain() : iterate(value).slice(),
  ),
  max: defineCallable(
    {
      name: "do_max",
      passes: true,
      params: [
        ["value", REQUIRED],
        ["case_sensitive", false],
        ["attribute", null],
      ],
    },
    (c) => minMax(c.values[0], c.values[1], c.values[2], true),
  ),
  min: defineCallable(
    {
      name: "do_min",
      passes: true,
      params: [
        ["value", REQUIRED],
        ["case_sensitive", false],
        ["attribute", null],
      ],
    },
    (c) => minMax(c.values[0], c.values[1], c.values[2], false),
  ),
  random: defineCallable({ name: "do_random", passes: true, params: [["seq", REQUIRED]] }, (c) =>
    randomItem(c.values[0]),
  ),
  reverse: defineCallable({ name: "do_reverse", params: [["value", REQUIRED]] }, (c) => reverse(c.values[0])),
  round: defineCallable(
    {
      name: "do_round",
      params: [
        ["value", REQUIRED],
        ["precision", 0],
        ["method", "common"],
      ],
    },
    (c) => roundValue(c.values[0], c.values[1], c.values[2]),
  ),
  sort: defineCallable(
    {
      name: "do_sort",
      passes: true,
      params: [
        ["value", REQUIRED],
        ["reverse", false],
        ["case_sensitive", false],
        ["attribute", null],
      ],
    },
    (c) => {
      const [value, reverseOrder, caseSensitive, attribute] = c.values;
      const key = multiAttrGetter(attribute, truthy(caseSensitive) ? undefined : ignoreCase);
      return pythonSorted(iterate(value).slice(), key, truthy(reverseOrder));
    },
  ),
  sum: defineCallable(
    {
      name: "sync_do_sum",
      passes: true,
      params: [
        ["iterable", REQUIRED],
        ["attribute", null],
        ["start", 0],
      ],
    },
    (c) => {
      const [value, attribute, start] = c.values;
      let items = iterate(value);
      if (attribute !== null) items = items.map(attrGetter(attribute));
      return sum(items, start);
    },
  ),
};
