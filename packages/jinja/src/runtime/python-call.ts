import { fail } from "./template-error.js";

/** A parameter without a default. */
export const REQUIRED: unique symbol = Symbol("required");

/**
 * A Python function's signature, as Jinja's filters and tests declare them: the name Python reports in errors,
 * the parameters in order (the first may be the environment or context Jinja passes, which counts in Python's
 * messages), and whether it takes `*args` / `**kwargs`.
 */
export interface Signature {
  name: string;
  /** Jinja passes the environment, context or eval context first (`@pass_environment`). */
  passes?: boolean;
  params: readonly (readonly [name: string, fallback: unknown])[];
  varargs?: boolean;
  varkw?: boolean;
}

/** The arguments bound to a signature: one value per parameter (the passed one left out), then extras. */
export interface Bound {
  values: unknown[];
  rest: unknown[];
  extra: Map<string, unknown>;
}

function listNames(names: string[]): string {
  const quoted = names.map((n) => `'${n}'`);
  if (quoted.length === 1) return quoted[0] as string;
  if (quoted.length === 2) return `${quoted[0]} and ${quoted[1]}`;
  return `${quoted.slice(0, -1).join(", ")}, and ${quoted[quoted.length - 1]}`;
}

/**
 * Binds positional and keyword arguments the way CPython does, raising its `TypeError` texts (`do_round() got an
 * unexpected keyword argument 'x'`, `… takes from 2 to 4 positional arguments but 5 were given`, `… missing 1
 * required positional argument: 'name'`).
 *
 * @example
 * bind({ name: "do_center", params: [["value", REQUIRED], ["width", 80]] }, ["a"], null).values; // ["a", 80]
 */
export function bind(signature: Signature, args: unknown[], kwargs: Map<string, unknown> | null): Bound {
  const params = signature.params;
  const offset = signature.passes ? 1 : 0;
  const values = new Array<unknown>(params.length).fill(REQUIRED);
  const count = Math.min(args.length, params.length);
  for (let i = 0; i < count; i++) values[i] = args[i];
  const rest = args.length > params.length ? args.slice(params.length) : [];
  const extra = new Map<string, unknown>();
  if (kwargs !== null) {
    for (const [key, value] of kwargs) {
      const at = params.findIndex(([name]) => name === key);
      if (at === -1) {
        if (!signature.varkw)
          fail("TypeError", `${signature.name}() got an unexpected keyword argument '${key}'`);
        extra.set(key, value);
      } else if (at < args.length) {
        fail("TypeError", `${signature.name}() got multiple values for argument '${key}'`);
      } else values[at] = value;
    }
  }
  if (rest.length > 0 && !signature.varargs) {
    const max = params.length + offset;
    const min = params.filter(([, fallback]) => fallback === REQUIRED).length + offset;
    const given = args.length + offset;
    const takes =
      min === max
        ? `${max} positional argument${max === 1 ? "" : "s"}`
        : `from ${min} to ${max} positional arguments`;
    fail(
      "TypeError",
      `${signature.name}() takes ${takes} but ${given} ${given === 1 ? "was" : "were"} given`,
    );
  }
  const missing: string[] = [];
  params.forEach(([name, fallback], i) => {
    if (values[i] !== REQUIRED) return;
    if (fallback === REQUIRED) missing.push(name);
    else values[i] = fallback;
  });
  if (missing.length > 0) {
    const n = missing.length;
    fail(
      "TypeError",
      `${signature.name}() missing ${n} required positional argument${n === 1 ? "" : "s"}: ${listNames(missing)}`,
    );
  }
  return { values, rest, extra };
}
