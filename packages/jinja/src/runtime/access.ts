import { DictView } from "./dict-view.js";
import { Markup } from "./markup.js";
import { PyBytes } from "./py-bytes.js";
import { PyIterator } from "./py-iterator.js";
import { MISSING, PyObject } from "./py-object.js";
import { PyRange } from "./py-range.js";
import { PyFloat, tuple, typeName, Undefined } from "./python-values.js";
import { fail } from "./template-error.js";
import { isTuple } from "./tuple.js";

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
  if (value === null) return null;
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Undefined) return value.fail();
  return fail("TypeError", "slice indices must be integers or None or have an __index__ method");
}

/** `slice.indices(length)`: the start, stop and step a slice selects from a sequence of `length` items. */
export function sliceBounds(length: number, slice: PySlice): { start: number; stop: number; step: number } {
  const step = sliceIndex(slice.step) ?? 1;
  if (step === 0) fail("ValueError", "slice step cannot be zero");
  const clamp = (raw: number | null, fallback: number, low: number, high: number) => {
    if (raw === null) return fallback;
    let index = raw < 0 ? raw + length : raw;
    if (index < low) index = low;
    if (index > high) index = high;
    return index;
  };
  if (step > 0) {
    return {
      start: clamp(sliceIndex(slice.start), 0, 0, length),
      stop: clamp(sliceIndex(slice.stop), length, 0, length),
      step,
    };
  }
  return {
    start: clamp(sliceIndex(slice.start), length - 1, -1, length - 1),
    stop: clamp(sliceIndex(slice.stop), -1, -1, length - 1),
    step,
  };
}

/** The positions a slice selects from a sequence of `length` items, as Python's `slice.indices` gives them. */
export function slicePositions(length: number, slice: PySlice): number[] {
  const { start, stop, step } = sliceBounds(length, slice);
  const out: number[] = [];
  if (step > 0) for (let i = start; i < stop; i += step) out.push(i);
  else for (let i = start; i > stop; i += step) out.push(i);
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
  if (value instanceof Markup) return pyLen(value.text);
  if (value instanceof PyRange || value instanceof DictView) return value.length;
  if (value instanceof PyBytes) return value.data.length;
  if (value instanceof PyObject && value.pyType === "LoopContext") return pyLen(value.getAttr("length"));
  return fail("TypeError", `object of type '${typeName(value)}' has no len()`);
}

/** A dict's value for a key, with Python's hash equality (`1`, `1.0` and `True` are one key), or MISSING. */
export function dictGet(map: Map<unknown, unknown>, key: unknown): unknown {
  const value = map.get(key);
  if (value !== undefined || map.has(key)) return value;
  if (typeof key === "string") return MISSING;
  const canonical = hashKey(key);
  if (canonical !== key && map.has(canonical)) return map.get(canonical);
  for (const [k, v] of map) if (typeof k !== "string" && hashKey(k) === canonical) return v;
  return MISSING;
}

/** Jinja's `Undefined` hashes by its type and equals any other: every undefined is one dict key. */
const UNDEFINED_KEY = Symbol("Undefined");

/** A key's hash class: an int for integral numbers and booleans, a Markup's text, one value for any undefined. */
export function hashKey(key: unknown): unknown {
  if (typeof key === "boolean") return key ? 1 : 0;
  if (key instanceof Undefined) return UNDEFINED_KEY;
  if (key instanceof PyFloat) {
    const x = key.value;
    if (Number.isNaN(x)) return key;
    if (Number.isInteger(x) && !Number.isSafeInteger(x)) return BigInt(x);
    return x === 0 ? 0 : x;
  }
  if (key instanceof Markup) return key.text;
  return key;
}

/** Raises Python's TypeError for a value that cannot be a dict key (a list, a dict, a tuple holding one). */
export function unhashable(key: unknown): void {
  if (key instanceof Map || (Array.isArray(key) && !isTuple(key)))
    fail("TypeError", `unhashable type: '${typeName(key)}'`);
  if (isTuple(key)) for (const item of key) unhashable(item);
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

function sliceString(text: string, key: PySlice): string {
  if (!ASTRAL.test(text) && (key.step === null || key.step === 1)) {
    const positions = slicePositions(text.length, key);
    return positions.length === 0
      ? ""
      : text.slice(positions[0], (positions[positions.length - 1] as number) + 1);
  }
  const chars = codePoints(text);
  return slicePositions(chars.length, key)
    .map((i) => chars[i])
    .join("");
}

/** `obj[key]` in Python, or MISSING where Python raises TypeError or LookupError. */
export function pythonItem(obj: unknown, key: unknown): unknown {
  if (Array.isArray(obj)) {
    if (key instanceof PySlice) {
      const picked = slicePositions(obj.length, key).map((i) => obj[i]);
      return isTuple(obj) ? tuple(picked) : picked;
    }
    const index = indexOf(obj.length, key);
    return index === undefined ? MISSING : obj[index];
  }
  if (typeof obj === "string" || obj instanceof Markup) {
    const text = typeof obj === "string" ? obj : obj.text;
    let out: string | undefined;
    if (key instanceof PySlice) out = sliceString(text, key);
    else {
      const chars = ASTRAL.test(text) ? Array.from(text) : text;
      const index = indexOf(chars.length, key);
      if (index !== undefined) out = chars[index];
    }
    if (out === undefined) return MISSING;
    return obj instanceof Markup ? new Markup(out) : out;
  }
  if (obj instanceof PyBytes) {
    if (key instanceof PySlice)
      return new PyBytes(Uint8Array.from(slicePositions(obj.data.length, key), (i) => obj.data[i] as number));
    const index = indexOf(obj.data.length, key);
    return index === undefined ? MISSING : obj.data[index];
  }
  if (obj instanceof PyRange) {
    if (key instanceof PySlice) {
      const { start, stop, step } = sliceBounds(obj.length, key);
      return new PyRange(obj.at(start), obj.at(stop), obj.step * step);
    }
    const index = indexOf(obj.length, key);
    return index === undefined ? MISSING : obj.at(index);
  }
  return MISSING;
}

/** `obj[a:b:c]`: Jinja compiles a slice to Python's own subscript, with Python's errors. */
export function sliceItem(obj: unknown, slice: PySlice): unknown {
  if (obj instanceof Undefined) return obj.fail();
  const value = pythonItem(obj, slice);
  if (value !== MISSING) return value;
  if (obj instanceof Map) return fail("TypeError", "unhashable type: 'slice'");
  return fail("TypeError", `'${typeName(obj)}' object is not subscriptable`);
}

/** `dict[key] = value` with Python's hashing: an unhashable key raises; an equal key (`1`, `1.0`) keeps the first. */
export function dictSet(map: Map<unknown, unknown>, key: unknown, value: unknown): void {
  if (typeof key === "string" || map.has(key)) {
    map.set(key, value);
    return;
  }
  unhashable(key);
  const canonical = hashKey(key);
  if (typeof canonical === "string" && map.has(canonical)) {
    map.set(canonical, value);
    return;
  }
  for (const existing of map.keys()) {
    if (typeof existing === "string") continue;
    const same = isTuple(key)
      ? isTuple(existing) && equalKeys(existing, key)
      : hashKey(existing) === canonical;
    if (same) {
      map.set(existing, value);
      return;
    }
  }
  map.set(key, value);
}

function equalKeys(a: unknown[], b: unknown[]): boolean {
  return a.length === b.length && a.every((item, i) => hashKey(item) === hashKey(b[i]));
}

/** `key in dict` with Python's hashing rules. */
export function dictHas(map: Map<unknown, unknown>, key: unknown): boolean {
  unhashable(key);
  if (map.has(key)) return true;
  if (typeof key === "string") return false;
  return dictGet(map, key) !== MISSING;
}

/** The items a `for` loop (or a filter) iterates over: a list's items, a dict's keys, a string's characters. */
export function iterate(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value instanceof Map) return Array.from(value.keys());
  if (typeof value === "string") return codePoints(value);
  if (value instanceof Undefined) return [];
  if (value instanceof PyIterator) return value.drain();
  if (value instanceof PyRange || value instanceof DictView) return value.items();
  if (value instanceof Markup) return codePoints(value.text);
  if (value instanceof PyBytes) return Array.from(value.data);
  return fail("TypeError", `'${typeName(value)}' object is not iterable`);
}

/** Like {@link iterate}, but an iterator stays lazy (a `for` loop pulls its items one by one). */
export function iterable(value: unknown): unknown[] | PyIterator {
  return value instanceof PyIterator ? value : iterate(value);
}

/** True when Python's `iter()` accepts the value. */
export function isIterable(value: unknown): boolean {
  return (
    typeof value === "string" ||
    Array.isArray(value) ||
    value instanceof Map ||
    value instanceof Undefined ||
    value instanceof Markup ||
    value instanceof PyIterator ||
    value instanceof PyRange ||
    value instanceof DictView ||
    value instanceof PyBytes ||
    (value instanceof PyObject && value.pyType === "LoopContext")
  );
}

/** Python's AttributeError text for `obj.name` (a namespace says only the name). */
export function attributeError(obj: unknown, name: string): never {
  if (obj instanceof Undefined) return obj.fail();
  if (obj instanceof PyObject && obj.pyType === "Namespace") return fail("AttributeError", name);
  return fail("AttributeError", `'${typeName(obj)}' object has no attribute '${name}'`);
}
