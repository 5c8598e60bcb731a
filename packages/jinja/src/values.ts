import { JsonNumber } from "@toolcall/core";
import { fail } from "./template-error.js";

/**
 * The engine's values are Python's, laid onto JavaScript so the common ones cost nothing:
 * `str` is a string, `int` a safe-integer number (a `bigint` beyond 2^53), `float` a {@link PyFloat}, `bool` a
 * boolean, `None` is `null`, `list` an array, `tuple` a frozen array marked by {@link TUPLE}, `dict` a `Map`
 * (insertion order, keys of any type), and Jinja's `Undefined` an {@link Undefined}.
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

/** The marker a tuple carries (an array with this key set). */
export const TUPLE: unique symbol = Symbol("tuple");

/** A Python tuple. */
export function tuple(items: unknown[]): unknown[] {
  (items as unknown as Record<symbol, boolean>)[TUPLE] = true;
  return Object.freeze(items) as unknown[];
}

export function isTuple(value: unknown): value is unknown[] {
  return Array.isArray(value) && (value as unknown as Record<symbol, boolean>)[TUPLE] === true;
}

const MISSING = Symbol("missing");

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
    this.obj = "obj" in options ? options.obj : MISSING;
    this.name = options.name;
    this.exception = options.exception ?? "UndefinedError";
  }

  get message(): string {
    if (this.hint) return this.hint;
    if (this.obj === MISSING) return `${pythonQuote(String(this.name))} is undefined`;
    if (typeof this.name !== "string") {
      return `${objectTypeRepr(this.obj)} has no element ${reprKey(this.name)}`;
    }
    return `${pythonQuote(objectTypeRepr(this.obj))} has no attribute ${pythonQuote(this.name)}`;
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

function reprKey(value: unknown): string {
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  return String(value);
}

/** Python's repr of a str without escapes beyond quotes (enough for names in messages). */
function pythonQuote(text: string): string {
  if (text.includes("'") && !text.includes('"')) return `"${text}"`;
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

/** Jinja's `object_type_repr`. */
export function objectTypeRepr(value: unknown): string {
  if (value === null) return "None";
  if (value instanceof Namespace) return "jinja2.utils.Namespace object";
  if (value instanceof Undefined) return "jinja2.runtime.Undefined object";
  if (value instanceof LoopLike) return "jinja2.runtime.LoopContext object";
  return `${typeName(value)} object`;
}

/** Jinja's `namespace()`: attributes assignable with `{% set ns.x = … %}`. */
export class Namespace {
  readonly attributes: Map<string, unknown>;
  constructor(attributes: Map<string, unknown>) {
    this.attributes = attributes;
  }
}

/** A base the loop context extends, so values can recognise it without an import cycle. */
export class LoopLike {}

/** A Python callable: positional arguments and keyword arguments. */
export class PyFunction {
  readonly name: string;
  readonly call: (args: unknown[], kwargs: Map<string, unknown> | null) => unknown;
  readonly kind: string;
  constructor(
    name: string,
    call: (args: unknown[], kwargs: Map<string, unknown> | null) => unknown,
    kind = "function",
  ) {
    this.name = name;
    this.call = call;
    this.kind = kind;
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
  if (Array.isArray(value)) return isTuple(value) ? "tuple" : "list";
  if (value instanceof Map) return "dict";
  if (value instanceof Undefined) return "Undefined";
  if (value instanceof Namespace) return "Namespace";
  if (value instanceof PyFunction) return value.kind;
  if (value instanceof LoopLike) return "LoopContext";
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
  if (Array.isArray(value)) {
    if (isTuple(value)) return value;
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = toPython(value[i]);
    return out;
  }
  if (
    value instanceof PyFloat ||
    value instanceof Undefined ||
    value instanceof Namespace ||
    value instanceof PyFunction ||
    value instanceof LoopLike
  ) {
    return value;
  }
  if (value instanceof Map) {
    const out = new Map<unknown, unknown>();
    for (const [k, v] of value) out.set(toPython(k), toPython(v));
    return out;
  }
  if (value instanceof Date) return value.toISOString();
  const out = new Map<unknown, unknown>();
  for (const key of Object.keys(value as object)) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) out.set(key, toPython(item));
  }
  return out;
}

/**
 * Engine values back to plain JavaScript (dicts to plain objects, floats to numbers).
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
      Object.defineProperty(out, String(k), {
        value: fromPython(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  if (value instanceof Undefined) return undefined;
  return value;
}

/** Asserts the value is a string where Python needs one. */
export function expectString(value: unknown, what: string): string {
  if (typeof value === "string") return value;
  return fail("TypeError", `${what} must be str, not ${typeName(value)}`);
}
