import { dictGet, pythonItem } from "./access.js";
import { lateBound } from "./late-bound.js";
import { MARKUP_PYTHON_METHODS, Markup } from "./markup.js";
import { callMethod, hasMethod, isMutating } from "./object-methods.js";
import { MISSING, PyObject } from "./py-object.js";
import { pyRepr } from "./python-repr.js";
import { PyFloat, PyFunction, typeName, Undefined } from "./python-values.js";
import { charged, chargeStep, chargeSteps, sizeOf } from "./render-budget.js";
import { fail } from "./template-error.js";
import { tupleFields } from "./tuple.js";

/**
 * Attribute access and calls in Jinja's immutable sandbox: `obj.name`, `obj[key]` (which falls back to attributes),
 * `obj.name(args)`, `f(args)`. Above the value model: methods of str, dict and list are looked up here.
 */

/** Python's `getattr(obj, name)` without the sandbox's check: the value, or MISSING. */
export function pythonGetattr(obj: unknown, name: string): unknown {
  if (obj instanceof PyObject) return obj.getAttr(name);
  if (Array.isArray(obj)) {
    const fields = tupleFields(obj);
    if (fields !== undefined) {
      const at = fields.indexOf(name);
      if (at !== -1) return obj[at];
    }
  }
  if (hasMethod(obj, name)) return boundMethod(obj, name);
  if (typeof obj === "number" || typeof obj === "bigint" || typeof obj === "boolean") {
    if (name === "real" || name === "numerator") return typeof obj === "boolean" ? (obj ? 1 : 0) : obj;
    if (name === "imag") return 0;
    if (name === "denominator") return 1;
  } else if (obj instanceof PyFloat) {
    if (name === "real") return obj;
    if (name === "imag") return new PyFloat(0);
  }
  if (name.startsWith("__") && name.endsWith("__") && name.length > 4) return DUNDER;
  return MISSING;
}

/** A dunder attribute every Python object has (`__class__`, `__init__`, …): only ever refused. */
const DUNDER = Symbol("dunder");

function unsafeUndefined(obj: unknown, attribute: string): Undefined {
  return new Undefined({
    hint: `access to attribute '${attribute}' of '${typeName(obj)}' object is unsafe.`,
    obj,
    name: attribute,
    exception: "SecurityError",
  });
}

/** The immutable sandbox's `is_safe_attribute`. */
function isSafeAttribute(obj: unknown, name: string, value: unknown): boolean {
  if (value === DUNDER || name.startsWith("_")) return false;
  return !isMutating(obj, name);
}

/** Jinja's `environment.getattr(obj, name)` in the immutable sandbox (`obj.name`). */
export function getAttribute(obj: unknown, name: string): unknown {
  if (obj instanceof Undefined) return obj.fail();
  const value = pythonGetattr(obj, name);
  if (value === MISSING) {
    if (obj instanceof Map) {
      const item = dictGet(obj, name);
      if (item !== MISSING) return item;
    }
    return new Undefined({ obj, name });
  }
  return isSafeAttribute(obj, name, value) ? value : unsafeUndefined(obj, name);
}

/** Jinja's `do_attr`: Python's `getattr` only (a dict's keys are not attributes). */
export function getAttributeOnly(obj: unknown, name: string): unknown {
  if (obj instanceof Undefined) return obj.fail();
  const value = pythonGetattr(obj, name);
  if (value === MISSING) return new Undefined({ obj, name });
  return isSafeAttribute(obj, name, value) ? value : unsafeUndefined(obj, name);
}

function boundMethod(obj: unknown, name: string): PyFunction {
  const call = (args: unknown[], kwargs: Map<string, unknown> | null) => callMethod(obj, name, args, kwargs);
  if (obj instanceof Markup && MARKUP_PYTHON_METHODS.has(name)) {
    const self = name === "escape" ? "<class 'markupsafe.Markup'>" : pyRepr(obj);
    return new PyFunction(name, call, "method", `Markup.${name} of ${self}`);
  }
  return new PyFunction(name, call, "builtin_function_or_method", typeName(obj));
}

/** `obj.name(args)` without building a bound method first. */
export function callAttribute(
  obj: unknown,
  name: string,
  args: unknown[],
  kwargs: Map<string, unknown> | null,
): unknown {
  chargeSteps(sizeOf(obj));
  if (
    (obj instanceof Map || typeof obj === "string" || Array.isArray(obj)) &&
    hasMethod(obj, name) &&
    !isMutating(obj, name)
  ) {
    return charged(callMethod(obj, name, args, kwargs));
  }
  return callValue(getAttribute(obj, name), args, kwargs);
}

/** Calls a Python callable. */
export function callValue(fn: unknown, args: unknown[], kwargs: Map<string, unknown> | null): unknown {
  chargeStep();
  if (fn instanceof PyFunction) return charged(fn.call(args, kwargs));
  if (fn instanceof Undefined) return fn.fail();
  if (fn instanceof PyObject) {
    const call = fn.getAttr("__call__");
    if (call instanceof PyFunction) return call.call(args, kwargs);
  }
  return fail("TypeError", `'${typeName(fn)}' object is not callable`);
}

/** Jinja's `environment.getitem(obj, key)` in the immutable sandbox (`obj[key]`). */
export function getItem(obj: unknown, key: unknown): unknown {
  if (obj instanceof Map) {
    const value = obj.get(key);
    if (value !== undefined || obj.has(key)) return value;
    if (typeof key !== "string") {
      const found = dictGet(obj, key);
      if (found !== MISSING) return found;
    }
  } else if (obj instanceof Undefined) {
    return obj.fail();
  } else {
    const value = pythonItem(obj, key);
    if (value !== MISSING) return value;
  }
  if (typeof key === "string" || key instanceof Markup) {
    const name = typeof key === "string" ? key : key.text;
    const value = pythonGetattr(obj, name);
    if (value !== MISSING) return isSafeAttribute(obj, name, value) ? value : unsafeUndefined(obj, name);
  }
  return new Undefined({ obj, name: key });
}

lateBound.getAttribute = getAttribute;
lateBound.getItem = getItem;
