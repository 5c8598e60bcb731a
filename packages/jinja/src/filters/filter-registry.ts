import { bind, REQUIRED, type Signature } from "../runtime/python-call.js";
import { fail } from "../runtime/template-error.js";

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
) => unknown;

/** The filters and tests an environment offers. */
export interface Builtins {
  filters: Map<string, Filter>;
  tests: Map<string, Test>;
  /** Autoescape is on where the filter runs (Jinja's `eval_ctx.autoescape`). */
  autoescape?: boolean;
}

/** What a defined filter's body receives: the bound parameters (value first), extra positionals and keywords. */
export interface FilterCall {
  values: unknown[];
  rest: unknown[];
  extra: Map<string, unknown>;
  env: Builtins;
}

const NO_EXTRA: unknown[] = [];
const NO_KEYWORDS = new Map<string, unknown>();

/**
 * Wraps a filter or test body with Python's argument binding for its signature: positional and keyword
 * arguments, defaults, and CPython's errors for a wrong call. Calls without keywords that fit take a fast path:
 * `fast(value, args)` when given (it reads the positional arguments and their defaults itself), else the body.
 *
 * @example
 * const center = defineCallable({ name: "do_center", params: [["value", REQUIRED], ["width", 80]] }, (c) => c.values);
 */
export function defineCallable(
  signature: Signature,
  body: (call: FilterCall) => unknown,
  fast?: (value: unknown, args: unknown[], env: Builtins) => unknown,
): Filter {
  const params = signature.params;
  const max = params.length;
  const fallbacks = params.map(([, fallback]) => fallback);
  const required = fallbacks.filter((f) => f === REQUIRED).length;
  const variadic = signature.varargs === true && signature.varkw === true && max === 1;
  const firstName = params[0]?.[0];
  const positions = new Map(params.map(([name], i) => [name, i]));
  /**
   * The values of a call with keywords that all name a parameter after the positional ones, every required one
   * given (`tojson(indent=4)`): Python's binding without its general machinery. Null for any other call, which
   * {@link bind} takes, with its errors.
   */
  const keywordValues = (args: unknown[], kwargs: Map<string, unknown>, given: number): unknown[] | null => {
    const values = new Array<unknown>(max);
    for (let i = 1; i < given; i++) values[i] = args[i - 1];
    const set = new Array<boolean>(max).fill(false);
    for (const [key, item] of kwargs) {
      const at = positions.get(key);
      if (at === undefined || at < given || set[at]) return null;
      values[at] = item;
      set[at] = true;
    }
    for (let i = given; i < max; i++) {
      if (set[i]) continue;
      if (fallbacks[i] === REQUIRED) return null;
      values[i] = fallbacks[i];
    }
    return values;
  };
  return (value, args, kwargs, env) => {
    if (variadic && (kwargs === null || (firstName !== undefined && !kwargs.has(firstName)))) {
      // `map`, `select`, … take the value, then everything else as *args and **kwargs.
      return body({ values: [value], rest: args, extra: kwargs ?? NO_KEYWORDS, env });
    }
    const given = args.length + 1;
    if (fast !== undefined && kwargs === null && given <= max && given >= required)
      return fast(value, args, env);
    if (kwargs === null && given <= max && given >= required) {
      const values = new Array<unknown>(max);
      values[0] = value;
      for (let i = 1; i < max; i++) values[i] = i < given ? args[i - 1] : fallbacks[i];
      return body({ values, rest: NO_EXTRA, extra: NO_KEYWORDS, env });
    }
    if (kwargs !== null && given <= max) {
      const values = keywordValues(args, kwargs, given);
      if (values !== null) {
        values[0] = value;
        return body({ values, rest: NO_EXTRA, extra: NO_KEYWORDS, env });
      }
    }
    const bound = bind(signature, [value, ...args], kwargs);
    return body({ values: bound.values, rest: bound.rest, extra: bound.extra, env });
  };
}

/**
 * {@link defineCallable} for a function of the value alone (`upper`, `is defined`): called with no arguments, it
 * goes straight to the body.
 *
 * @example
 * defineUnary({ name: "do_upper", params: [["s", REQUIRED]] }, (value) => value);
 */
export function defineUnary(signature: Signature, body: (value: unknown) => unknown): Filter {
  const slow = defineCallable(signature, (c) => body(c.values[0]));
  return (value, args, kwargs, env) =>
    args.length === 0 && kwargs === null ? body(value) : slow(value, args, kwargs, env);
}

/**
 * {@link defineCallable} for a function of the value and one argument (`is in x`, `is divisibleby 3`): called with
 * that one positional argument, it goes straight to the body.
 *
 * @example
 * defineBinary({ name: "test_in", params: [["value", REQUIRED], ["seq", REQUIRED]] }, (value, seq) => value);
 */
export function defineBinary(
  signature: Signature,
  body: (value: unknown, other: unknown) => unknown,
): Filter {
  const slow = defineCallable(signature, (c) => body(c.values[0], c.values[1]));
  return (value, args, kwargs, env) =>
    args.length === 1 && kwargs === null ? body(value, args[0]) : slow(value, args, kwargs, env);
}

/**
 * A builtin (C) function's binding: exactly `arity` positional arguments, no keywords
 * (`len() takes exactly one argument (2 given)`).
 *
 * @example
 * defineBuiltin("len", (value) => value);
 */
export function defineBuiltin(name: string, body: (value: unknown) => unknown): Filter {
  return (value, args, kwargs) => {
    if (kwargs !== null && kwargs.size > 0) fail("TypeError", `${name}() takes no keyword arguments`);
    if (args.length > 0) fail("TypeError", `${name}() takes exactly one argument (${args.length + 1} given)`);
    return body(value);
  };
}

/** A binary operator from Python's `operator` module (`eq`, `lt`, …) used as a test. */
export function defineOperator(name: string, body: (a: unknown, b: unknown) => unknown): Test {
  return (value, args, kwargs) => {
    if (kwargs !== null && kwargs.size > 0) fail("TypeError", `${name}() takes no keyword arguments`);
    if (args.length !== 1) fail("TypeError", `${name} expected 2 arguments, got ${args.length + 1}`);
    return body(value, args[0]);
  };
}

export { REQUIRED };
