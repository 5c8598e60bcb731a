import { MISSING } from "./py-object.js";
import { PyFunction, tuple } from "./values.js";

/** Jinja's `Macro`: a callable that also answers `name`, `arguments`, `catch_kwargs`, `catch_varargs`, `caller`. */
export class Macro extends PyFunction {
  readonly parameters: readonly string[];
  readonly catchKwargs: boolean;
  readonly catchVarargs: boolean;
  readonly usesCaller: boolean;

  constructor(options: {
    name: string;
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
  }

  override get pyModule(): string {
    return "jinja2.runtime";
  }

  override getAttr(name: string): unknown {
    switch (name) {
      case "name":
        return this.name;
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
