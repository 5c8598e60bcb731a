import { dictHas, isIterable } from "../runtime/access.js";
import { isStr, Markup, strText } from "../runtime/markup.js";
import { contains, eq, mod, order } from "../runtime/operators.js";
import { PyObject } from "../runtime/py-object.js";
import { PyRange } from "../runtime/py-range.js";
import { pyStr } from "../runtime/python-repr.js";
import { PyFloat, PyFunction, Undefined } from "../runtime/python-values.js";
import { callStringMethod } from "../runtime/strings/str-methods.js";
import {
  defineBinary,
  defineBuiltin,
  defineCallable,
  defineOperator,
  defineUnary,
  REQUIRED,
  type Test,
} from "./filter-registry.js";

/** Jinja's tests (`tests.py`, 3.1), with Python's semantics: `'a' is odd` formats, `[1] is lower` stringifies. */

const one = (name: string, body: (value: unknown) => boolean): Test =>
  defineUnary({ name, params: [["value", REQUIRED]] }, body);

function isSequence(value: unknown): boolean {
  return (
    isStr(value) ||
    Array.isArray(value) ||
    value instanceof Map ||
    value instanceof PyRange ||
    value instanceof Undefined
  );
}

function isCallable(value: unknown): boolean {
  if (value instanceof PyFunction || value instanceof Undefined) return true;
  return value instanceof PyObject && value.getAttr("__call__") instanceof PyFunction;
}

function sameAs(value: unknown, other: unknown): boolean {
  if (value === other) return true;
  // Python caches small ints and interns short strings: `is` holds for equal ones of these.
  if (typeof value === "number" && typeof other === "number")
    return value === other && value >= -5 && value <= 256;
  return false;
}

/** The tests, by name. */
export const TESTS: Record<string, Test> = {
  odd: one("test_odd", (v) => eq(mod(v, 2), 1)),
  even: one("test_even", (v) => eq(mod(v, 2), 0)),
  divisibleby: defineBinary(
    {
      name: "test_divisibleby",
      params: [
        ["value", REQUIRED],
        ["num", REQUIRED],
      ],
    },
    (value, num) => eq(mod(value, num), 0),
  ),
  defined: one("test_defined", (v) => !(v instanceof Undefined)),
  undefined: one("test_undefined", (v) => v instanceof Undefined),
  filter: defineCallable({ name: "test_filter", passes: true, params: [["value", REQUIRED]] }, (c) => {
    const v = c.values[0];
    dictHas(new Map(), v);
    return isStr(v) && c.env.filters.has(strText(v));
  }),
  test: defineCallable({ name: "test_test", passes: true, params: [["value", REQUIRED]] }, (c) => {
    const v = c.values[0];
    dictHas(new Map(), v);
    return isStr(v) && c.env.tests.has(strText(v));
  }),
  none: one("test_none", (v) => v === null),
  boolean: one("test_boolean", (v) => typeof v === "boolean"),
  false: one("test_false", (v) => v === false),
  true: one("test_true", (v) => v === true),
  integer: one("test_integer", (v) => typeof v === "number" || typeof v === "bigint"),
  float: one("test_float", (v) => v instanceof PyFloat),
  lower: one("test_lower", (v) => callStringMethod(pyStr(v), "islower", [], null) === true),
  upper: one("test_upper", (v) => callStringMethod(pyStr(v), "isupper", [], null) === true),
  string: one("test_string", isStr),
  mapping: one("test_mapping", (v) => v instanceof Map),
  number: one(
    "test_number",
    (v) => typeof v === "number" || typeof v === "bigint" || typeof v === "boolean" || v instanceof PyFloat,
  ),
  sequence: one("test_sequence", isSequence),
  iterable: one("test_iterable", isIterable),
  callable: defineBuiltin("callable", isCallable),
  sameas: defineBinary(
    {
      name: "test_sameas",
      params: [
        ["value", REQUIRED],
        ["other", REQUIRED],
      ],
    },
    sameAs,
  ),
  escaped: one("test_escaped", (v) => v instanceof Markup),
  in: defineBinary(
    {
      name: "test_in",
      params: [
        ["value", REQUIRED],
        ["seq", REQUIRED],
      ],
    },
    (value, seq) => contains(seq, value),
  ),
};

const equal = defineOperator("eq", (a, b) => eq(a, b));
const notEqual = defineOperator("ne", (a, b) => !eq(a, b));
const less = defineOperator("lt", (a, b) => order(a, b, "<") < 0);
const lessOrEqual = defineOperator("le", (a, b) => order(a, b, "<=") <= 0);
const greater = defineOperator("gt", (a, b) => order(a, b, ">") > 0);
const greaterOrEqual = defineOperator("ge", (a, b) => order(a, b, ">=") >= 0);
for (const name of ["==", "eq", "equalto"]) TESTS[name] = equal;
for (const name of ["!=", "ne"]) TESTS[name] = notEqual;
for (const name of ["<", "lt", "lessthan"]) TESTS[name] = less;
for (const name of ["<=", "le"]) TESTS[name] = lessOrEqual;
for (const name of [">", "gt", "greaterthan"]) TESTS[name] = greater;
for (const name of [">=", "ge"]) TESTS[name] = greaterOrEqual;
