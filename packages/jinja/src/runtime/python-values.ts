import { JsonNumber } from "@toolcall/core";
import { DictView } from "./dict-view.js";
import { lateBound } from "./late-bound.js";
import { Markup } from "./markup.js";
import { PyFunction } from "./py-function.js";
import { PyIterator } from "./py-iterator.js";
import { MISSING, PyObject } from "./py-object.js";
import { PyRange } from "./py-range.js";
import { fail } from "./template-error.js";
import { isTuple, tuple, tupleFields } from "./tuple.js";

export { PyFunction } from "./py-function.js";
export { isTuple, tuple } from "./tuple.js";

/**
 * The engine's values are Python's, laid onto JavaScript so the common ones cost nothing:
 * `str` is a string (a {@link Markup} when marked safe), `int` a safe-integer number (a `bigint` beyond 2^53),
 * `float` a {@link PyFloat}, `bool` a boolean, `None` is `null`, `list` an array, `tuple` a frozen array marked
 * by a symbol, `dict` a `Map` (insertion order, keys of any type), Jinja's `Undefined` an {@link Undefined}, and
 * the rest (namespace, loop, macro, range, iterators, dict views, …) a {@link PyObject}.
 */

/**
 * A Python `float`: kept apart from `int` so `1.0` prints `1.0`.
 *
 * @example
 * compileTemplate("{{ x }}").render({ x: new PyFloat(1) }); // "1.0"
 */
export class PyFloat {
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }
}

const NO_OBJECT = Symbol("no object");

/**
 * Jinja's default `Undefined`: prints empty, iterates empty, is falsy; anything else raises its message.
 *
 * @example
 * new Undefined({ name: "x" }).message; // "'x' is undefined"
 */
export class Undefined {
  readonly hint: string | undefined;
  readonly obj: unknown;
  readonly name: unknown;
  readonly exception: string;

  constructor(options: { hint?: string; obj?: unknown; name?: unknown; exception?: string }) {
    this.hint = options.hint;
    this.obj = "obj" in options ? options.obj : NO_OBJECT;
    this.name = options.name;
    this.exception = options.exception ?? "UndefinedError";
  }

  get message(): string {
    if (this.hint) return this.hint;
    if (this.obj === NO_OBJECT) return `${lateBound.repr(this.name ?? null)} is undefined`;
    if (typeof this.name !== "string") {
      return `${objectTypeRepr(this.obj)} has no element ${lateBound.repr(this.name)}`;
    }
    return `${lateBound.repr(objectTypeRepr(this.obj))} has no attribute ${lateBound.repr(this.name)}`;
  }

  /** Raises the error Jinja raises when an undefined value is used. */
  fail(): never {
    return fail(this.exception, this.message);
  }
}

/** A variable that is not defined. */
export function undefinedName(name: string): Undefined {
  return new Undefined({ name });
}

/** Jinja's `object_type_repr`: `dict object`, `jinja2.runtime.LoopContext object`, `None`. */
export function objectTypeRepr(value: unknown): string {
  if (value === null) return "None";
  if (value instanceof Undefined) return "jinja2.runtime.Undefined object";
  if (value instanceof Markup) return "markupsafe.Markup object";
  if (value instanceof PyObject) {
    const module = value.pyModule;
    return module === "builtins" ? `${value.pyType} object` : `${module}.${value.pyType} object`;
  }
  if (Array.isArray(value) && tupleFields(value) !== undefined) return "jinja2.filters._GroupTuple object";
  return `${typeName(value)} object`;
}

/** Jinja's `namespace()`: attributes assignable with `{% set ns.x = … %}`. */
export class Namespace extends PyObject {
  readonly attributes: Map<string, unknown>;
  constructor(attributes: Map<string, unknown>) {
    super();
    this.attributes = attributes;
  }
  get pyType(): string {
    return "Namespace";
  }
  override get pyModule(): string {
    return "jinja2.utils";
  }
  override getAttr(name: string): unknown {
    const value = this.attributes.get(name);
    return value === undefined && !this.attributes.has(name) ? MISSING : value;
  }
}

/** A Python `int` from a bigint, as a number when it fits. */
export function normalizeInt(value: bigint): number | bigint {
  if (value >= -9007199254740991n && value <= 9007199254740991n) return Number(value);
  return value;
}

/** The Python type name of a value (`str`, `int`, `NoneType`, …). */
export function typeName(value: unknown): string {
  if (value === null) return "NoneType";
  switch (typeof value) {
    case "string":
      return "str";
    case "number":
    case "bigint":
      return "int";
    case "boolean":
      return "bool";
    case "function":
      return "function";
    case "undefined":
      return "Undefined";
    default:
      break;
  }
  if (value instanceof PyFloat) return "float";
  if (Array.isArray(value)) {
    if (!isTuple(value)) return "list";
    return tupleFields(value) === undefined ? "tuple" : "_GroupTuple";
  }
  if (value instanceof Map) return "dict";
  if (value instanceof Undefined) return "Undefined";
  if (value instanceof Markup) return "Markup";
  if (value instanceof PyObject) return value.pyType;
  return "object";
}

/** Python truthiness. */
export function truthy(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  switch (typeof value) {
    case "string":
      return value.length > 0;
    case "boolean":
      return value;
    case "number":
      return value !== 0;
    case "bigint":
      return value !== 0n;
    default:
      break;
  }
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof Map) return value.size > 0;
  if (value instanceof PyFloat) return value.value !== 0;
  if (value instanceof Undefined) return false;
  if (value instanceof Markup) return value.text.length > 0;
  if (value instanceof PyRange || value instanceof DictView) return value.length > 0;
  if (value instanceof PyObject && value.pyType === "bytes")
    return (value as unknown as { data: Uint8Array }).data.length > 0;
  return true;
}

/**
 * Converts caller data (plain objects, arrays, numbers, `JsonNumber`, `bigint`, functions) into engine values.
 * A plain object becomes a dict in its key order; a number that is an integer becomes an `int`, any other a
 * `float`; a `JsonNumber` keeps the type its text gives (`1.0` a float, big integers whole). A value that is
 * already an engine value is kept.
 *
 * @example
 * toPython({ n: new JsonNumber("1.0"), big: 12345678901234567890n }); // Map { "n" => PyFloat(1), "big" => 12345678901234567890n }
 */
export function toPython(value: unknown): unknown {
  try {
    return convert(value, 0, null, []);
  } catch (error) {
    if (error !== DEEP) throw error;
    // Deep data, or data that holds itself: convert again, keeping each container's copy, so a cycle in the
    // caller's data becomes the same cycle in the engine's (as Python would see the objects themselves).
    return convert(value, 0, new Map(), []);
  }
}

/**
 * Thrown by the fast conversion on a container met again below itself, or past {@link FAST_DEPTH}: the conversion
 * starts over, keeping copies.
 */
const DEEP = Symbol("deep");
/** Nesting the fast conversion takes before it looks for cycles. */
const FAST_DEPTH = 32;
/**
 * The deepest data a render takes: deeper, it raises Python's RecursionError (which CPython raises on such data as
 * soon as a template prints or compares it) before the conversion runs out of JavaScript stack.
 */
const MAX_DATA_DEPTH = 1000;

/** One value: `path` holds the containers above it (the fast conversion's cycle check), `copies` the done ones. */
function convert(
  value: unknown,
  depth: number,
  copies: Map<object, unknown> | null,
  path: unknown[],
): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (Number.isSafeInteger(value)) return value === 0 ? 0 : value;
      if (Number.isInteger(value)) return normalizeInt(BigInt(value));
      return new PyFloat(value);
    case "bigint":
      return normalizeInt(value);
    case "undefined":
      return new Undefined({ name: "undefined" });
    case "function": {
      const fn = value as (...args: unknown[]) => unknown;
      return new PyFunction(fn.name || "function", (args) => toPython(fn(...args.map(fromPython))));
    }
    default:
      break;
  }
  if (value === null) return null;
  if (JsonNumber.isInstance(value)) {
    if (value.isInteger) return normalizeInt(BigInt(value.text));
    return new PyFloat(Number(value.text));
  }
  if (
    value instanceof PyFloat ||
    value instanceof Undefined ||
    value instanceof PyObject ||
    value instanceof Markup
  ) {
    return value;
  }
  if (Array.isArray(value) && isTuple(value)) return value;
  if (value instanceof Date) return value.toISOString();
  if (copies === null) {
    if (depth >= FAST_DEPTH) throw DEEP;
    for (let i = 0; i < depth; i++) if (path[i] === value) throw DEEP;
    path[depth] = value;
  } else {
    if (depth >= MAX_DATA_DEPTH) fail("RecursionError", "maximum recursion depth exceeded");
    const copy = copies.get(value as object);
    if (copy !== undefined) return copy;
  }
  const inner = depth + 1;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    copies?.set(value, out);
    for (let i = 0; i < value.length; i++) out[i] = convert(value[i], inner, copies, path);
    return out;
  }
  const out = new Map<unknown, unknown>();
  copies?.set(value as object, out);
  if (value instanceof Map) {
    for (const [k, v] of value) out.set(convert(k, inner, copies, path), convert(v, inner, copies, path));
    return out;
  }
  for (const key of Object.keys(value as object)) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) out.set(key, convert(item, inner, copies, path));
  }
  return out;
}

/**
 * Engine values back to plain JavaScript (dicts to plain objects, floats to numbers, a Markup to its text, ranges
 * and views to arrays).
 *
 * @example
 * fromPython(toPython({ a: [1, 2.5] })); // { a: [1, 2.5] }
 */
export function fromPython(value: unknown): unknown {
  if (value instanceof PyFloat) return value.value;
  if (Array.isArray(value)) return value.map(fromPython);
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) {
      Object.defineProperty(out, String(fromPython(k)), {
        value: fromPython(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  if (value instanceof Undefined) return undefined;
  if (value instanceof Markup) return value.text;
  if (value instanceof PyRange || value instanceof DictView) return value.items().map(fromPython);
  if (value instanceof PyIterator) return value.drain().map(fromPython);
  return value;
}

/** Asserts the value is a string where Python needs one. */
export function expectString(value: unknown, what: string): string {
  if (typeof value === "string") return value;
  if (value instanceof Markup) return value.text;
  return fail("TypeError", `${what} must be str, not ${typeName(value)}`);
}

export { tuple as makeTuple, tupleFields };
