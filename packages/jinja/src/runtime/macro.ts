import { Markup } from "./markup.js";
import { MISSING } from "./py-object.js";
import { PyFunction, tuple, Undefined } from "./python-values.js";
import { enterFrames, leaveFrames, MACRO_FRAMES, Scope } from "./scope.js";
import { fail } from "./template-error.js";

/** Jinja's `Macro`: a callable that also answers `name`, `arguments`, `catch_kwargs`, `catch_varargs`, `caller`. */
export class Macro extends PyFunction {
  readonly parameters: readonly string[];
  readonly catchKwargs: boolean;
  readonly catchVarargs: boolean;
  readonly usesCaller: boolean;
  /** A call block's `caller`: Jinja gives it no name (`None`, `<Macro anonymous>`). */
  readonly anonymous: boolean;

  constructor(options: {
    name: string;
    anonymous?: boolean;
    parameters: readonly string[];
    catchKwargs: boolean;
    catchVarargs: boolean;
    usesCaller: boolean;
    call: (args: unknown[], kwargs: Map<string, unknown> | null) => unknown;
  }) {
    super(options.name, options.call, "Macro");
    this.parameters = options.parameters;
    this.catchKwargs = options.catchKwargs;
    this.catchVarargs = options.catchVarargs;
    this.usesCaller = options.usesCaller;
    this.anonymous = options.anonymous ?? false;
  }

  override get pyModule(): string {
    return "jinja2.runtime";
  }

  override getAttr(name: string): unknown {
    switch (name) {
      case "name":
        return this.anonymous ? null : this.name;
      case "arguments":
        return tuple(this.parameters.slice());
      case "catch_kwargs":
        return this.catchKwargs;
      case "catch_varargs":
        return this.catchVarargs;
      case "caller":
        return this.usesCaller;
      default:
        return MISSING;
    }
  }
}

const NO_KEYWORDS: Map<string, unknown> = new Map();

/**
 * A macro definition, compiled: `(scope where it is defined) => Macro`. Calling the macro binds arguments as
 * Jinja's `Macro.__call__` does (positional, then keyword, then defaults evaluated in the macro's scope; `caller`,
 * `varargs`, `kwargs` when the body uses them) with its error texts, and holds Python's frames for recursion.
 */
export function defineMacro(options: {
  name: string;
  anonymous?: boolean;
  params: string[];
  defaults: ((scope: Scope) => unknown)[];
  render: (scope: Scope) => string;
  wrap: boolean;
  catchVarargs: boolean;
  catchKwargs: boolean;
  usesCaller: boolean;
}): (defining: Scope) => Macro {
  const { name, params, defaults, render, wrap, catchVarargs, catchKwargs, usesCaller } = options;
  const anonymous = options.anonymous ?? false;
  // How Jinja's errors name the macro: `repr(self.name)`.
  const named = anonymous ? "None" : `'${name}'`;
  const arity = params.length;
  const firstDefault = arity - defaults.length;
  // What a default that names a parameter still unbound sees (Jinja's `undefined(name=…)`), made once.
  const unbound = params.map((param) => new Undefined({ name: param }));
  return (defining) =>
    new Macro({
      name,
      anonymous,
      parameters: params,
      catchKwargs,
      catchVarargs,
      usesCaller,
      call: (args, kwargs) => {
        const remaining = kwargs === null || kwargs.size === 0 ? NO_KEYWORDS : new Map(kwargs);
        const scope = new Scope(defining);
        // Every parameter is bound before any default runs (a default sees the others, a missing one undefined).
        let missing: number[] | null = null;
        for (let i = 0; i < arity; i++) {
          const param = params[i] as string;
          if (i < args.length) scope.set(param, args[i]);
          else if (remaining.has(param)) {
            scope.set(param, remaining.get(param));
            remaining.delete(param);
          } else {
            scope.set(param, unbound[i]);
            if (missing === null) missing = [];
            missing.push(i);
          }
        }
        if (usesCaller) {
          const caller = remaining.get("caller");
          if (caller !== undefined) remaining.delete("caller");
          scope.set(
            "caller",
            caller === undefined || caller === null
              ? new Undefined({ hint: "No caller defined", name: "caller" })
              : caller,
          );
        }
        if (!catchKwargs && remaining.size > 0) {
          if (remaining.has("caller"))
            fail(
              "TypeError",
              `macro ${named} was invoked with two values for the special caller argument. This is most likely a bug.`,
            );
          fail("TypeError", `macro ${named} takes no keyword argument '${remaining.keys().next().value}'`);
        }
        if (!catchVarargs && args.length > arity)
          fail("TypeError", `macro ${named} takes not more than ${arity} argument(s)`);
        // A render that raises is abandoned whole, so the count needs no unwinding (no try/finally on this path).
        enterFrames(MACRO_FRAMES);
        if (missing !== null) {
          for (const i of missing) {
            const param = params[i] as string;
            scope.set(
              param,
              i >= firstDefault
                ? (defaults[i - firstDefault] as (scope: Scope) => unknown)(scope)
                : new Undefined({ hint: `parameter '${param}' was not provided`, name: param }),
            );
          }
        }
        if (catchKwargs) scope.set("kwargs", remaining === NO_KEYWORDS ? new Map() : remaining);
        if (catchVarargs) scope.set("varargs", tuple(args.slice(arity)));
        const text = render(scope);
        leaveFrames(MACRO_FRAMES);
        return wrap ? new Markup(text) : text;
      },
    });
}
