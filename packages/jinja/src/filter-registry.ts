import { bind, REQUIRED, type Signature } from "./python-call.js";
import { fail } from "./template-error.js";

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
 * arguments, defaults, and CPython's errors for a wrong call. Calls without keywords that fit take a fast path.
 *
 * @example
 * const center = defineCallable({ name: "do_center", params: [["value", REQUIRED], ["width", 80]] }, (c) => c.values);
 */
export function defineCallable(signature: Signature, body: (call: FilterCall) => unknown): Filter {
  const params = signature.params;
  const max = params.length;
  const fallbacks = params.map(([, fallback]) => fallback);
  const required = fallbacks.filter((f) => f === REQUIRED).length;
  return (value, args, kwargs, env) => {
    const given = args.length + 1;
    if (kwargs === null && given <= max && given >= required) {
      const values = new Array<unknown>(max);
      values[0] = value;
      for (let i = 1; i < max; i++) values[i] = i < given ? args[i - 1] : fallbacks[i];
      return body({ values, rest: NO_EXTRA, extra: NO_KEYWORDS, env });
    }
    const bound = bind(signature, [value, ...args], kwargs);
    return body({ values: bound.values, rest: bound.rest, extra: bound.extra, env });
  };
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
