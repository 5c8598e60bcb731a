import { type LoopContext, loopAttribute } from "./loop-context.js";
import { callMethod, hasMethod, MUTATING_METHODS } from "./methods.js";
import { fail } from "./template-error.js";
import { isTuple, LoopLike, Namespace, PyFloat, PyFunction, tuple, typeName, Undefined } from "./values.js";

/** A Python `slice` object, made by `x[a:b:c]`. */
export class PySlice {
  readonly start: unknown;
  readonly stop: unknown;
  readonly step: unknown;
  constructor(start: unknown, stop: unknown, step: unknown) {
    this.start = start;
    this.stop = stop;
    this.step = step;
  }
}

function sliceIndex(value: unknown): number | null {
  if (value === null || value instanceof Undefined) return null;
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  return fail("TypeError", "slice indices must be integers or None or have an __index__ method");
}

/** The positions a slice selects from a sequence of `length` items, as Python's `slice.indices` gives them. */
export function slicePositions(length: number, slice: PySlice): number[] {
  const stepValue = sliceIndex(slice.step);
  const step = stepValue ?? 1;
  if (step === 0) fail("ValueError", "slice step cannot be zero");
  const clamp = (raw: number | null, fallback: number, low: number, high: number) => {
    if (raw === null) return fallback;
    let index = raw < 0 ? raw + length : raw;
    if (index < low) index = low;
    if (index > high) index = high;
    return index;
  };
  const out: number[] = [];
  if (step > 0) {
    const start = clamp(sliceIndex(slice.start), 0, 0, length);
    const stop = clamp(sliceIndex(slice.stop), length, 0, length);
    for (let i = start; i < stop; i += step) out.push(i);
  } else {
    const start = clamp(sliceIndex(slice.start), length - 1, -1, length - 1);
    const stop = clamp(sliceIndex(slice.stop), -1, -1, length - 1);
    for (let i = start; i > stop; i += step) out.push(i);
  }
  return out;
}

const ASTRAL = /[\uD800-\uDFFF]/;

/** A string's code points, as Python indexes them. */
export function codePoints(text: string): string[] {
  return ASTRAL.test(text) ? Array.from(text) : text.split("");
}

/** Python's `len()`. */
export function pyLen(value: unknown): number {
  if (typeof value === "string") return ASTRAL.test(value) ? Array.from(value).length : value.length;
  if (Array.isArray(value)) return value.length;
  if (value instanceof Map) return value.size;
  if (value instanceof Undefined) return 0;
  if (value instanceof LoopLike) return (value as LoopContext).length;
  return fail("TypeError", `object of type '${typeName(value)}' has no len()`);
}

function unsafeUndefined(obj: unknown, attribute: string): Undefined {
  return new Undefined({
    hint: `access to attribute '${attribute}' of '${typeName(obj)}' object is unsafe.`,
    obj,
    name: attribute,
    exception: "SecurityError",
  });
}

/** Jinja's `environment.getattr(obj, name)` in the immutable sandbox (`obj.name`). */
export function getAttribute(obj: unknown, name: string): unknown {
  if (obj instanceof Map) {
    if (hasMethod(obj, name)) return boundMethod(obj, name);
    const value = obj.get(name);
    if (value !== undefined || obj.has(name)) return value;
    return new Undefined({ obj, name });
  }
  if (obj instanceof Undefined) return obj.fail();
  if (name.startsWith("_")) return unsafeUndefined(obj, name);
  if (obj instanceof Namespace) {
    const value = obj.attributes.get(name);
    return value !== undefined ? value : new Undefined({ obj, name });
  }
  if (obj instanceof LoopLike) return loopAttribute(obj as LoopContext, name);
  if (hasMethod(obj, name)) return boundMethod(obj, name);
  return new Undefined({ obj, name });
}

function boundMethod(obj: unknown, name: string): unknown {
  if (MUTATING_METHODS.has(`${typeName(obj)}.${name}`)) return unsafeUndefined(obj, name);
  return new PyFunction(
    name,
    (args, kwargs) => callMethod(obj, name, args, kwargs),
    "builtin_function_or_method",
  );
}

/** `obj.name(args)` without building a bound method first. */
export function callAttribute(
  obj: unknown,
  name: string,
  args: unknown[],
  kwargs: Map<string, unknown> | null,
): unknown {
  if (obj instanceof Map || typeof obj === "string" || Array.isArray(obj)) {
    if (hasMethod(obj, name) && !MUTATING_METHODS.has(`${typeName(obj)}.${name}`)) {
      return callMethod(obj, name, args, kwargs);
    }
  }
  return callValue(getAttribute(obj, name), args, kwargs);
}

/** Calls a Python callable. */
export function callValue(fn: unknown, args: unknown[], kwargs: Map<string, unknown> | null): unknown {
  if (fn instanceof PyFunction) return fn.call(args, kwargs);
  if (fn instanceof Undefined) return fn.fail();
  return fail("TypeError", `'${typeName(fn)}' object is not callable`);
}

function indexOf(length: number, key: unknown): number | undefined {
  let index: number;
  if (typeof key === "number") index = key;
  else if (typeof key === "boolean") index = key ? 1 : 0;
  else if (typeof key === "bigint") index = Number(key);
  else return undefined;
  if (index < 0) index += length;
  return index >= 0 && index < length ? index : undefined;
}

/** Jinja's `environment.getitem(obj, key)` in the immutable sandbox (`obj[key]`). */
export function getItem(obj: unknown, key: unknown): unknown {
  if (obj instanceof Map) {
    const value = obj.get(key);
    if (value !== undefined) return value;
    if (obj.has(key)) return value;
    if (key instanceof PyFloat && Number.isInteger(key.value) && obj.has(key.value))
      return obj.get(key.value);
  } else if (Array.isArray(obj)) {
    if (key instanceof PySlice) {
      const picked = slicePositions(obj.length, key).map((i) => obj[i]);
      return isTuple(obj) ? tuple(picked) : picked;
    }
    const index = indexOf(obj.length, key);
    if (index !== undefined) return obj[index];
  } else if (typeof obj === "string") {
    if (key instanceof PySlice) {
      if (!ASTRAL.test(obj) && (key.step === null || key.step === 1)) {
        const positions = slicePositions(obj.length, key);
        return positions.length === 0
          ? ""
          : obj.slice(positions[0], (positions[positions.length - 1] as number) + 1);
      }
      const chars = codePoints(obj);
      return slicePositions(chars.length, key)
        .map((i) => chars[i])
        .join("");
    }
    const chars = ASTRAL.test(obj) ? Array.from(obj) : obj;
    const index = indexOf(chars.length, key);
    if (index !== undefined) return chars[index];
  } else if (obj instanceof Undefined) {
    return obj.fail();
  }
  if (typeof key === "string") {
    const value = getAttribute(obj, key);
    if (!(value instanceof Undefined) || obj instanceof Namespace) return value;
    if (value.exception === "SecurityError") return value;
  }
  return new Undefined({ obj, name: key });
}

/** The items a `for` loop (or a filter) iterates over: a list's items, a dict's keys, a string's characters. */
export function iterate(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value instanceof Map) return Array.from(value.keys());
  if (typeof value === "string") return codePoints(value);
  if (value instanceof Undefined) return [];
  return fail("TypeError", `'${typeName(value)}' object is not iterable`);
}
