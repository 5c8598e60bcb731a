import type { WorkMeter } from "@toolcall/core/kit";
import { type Builtins, defaultBuiltins, defaultGlobals } from "../filters/default-builtins.js";
import { strftime } from "../filters/strftime.js";
import { bind, REQUIRED } from "../runtime/python-call.js";
import { pyStr } from "../runtime/python-repr.js";
import { expectString, PyFunction, toPython } from "../runtime/python-values.js";
import { budget, outputExhausted, startBudget, stepsTaken } from "../runtime/render-budget.js";
import { runtime } from "../runtime/scope.js";
import { fail, TemplateError } from "../runtime/template-error.js";
import type { Stmt } from "./ast.js";
import { compileStatements, resetControl, Scope } from "./compile-statements.js";
import { tokenize } from "./lexer.js";
import { parse } from "./parser.js";

/** How a template is read: Jinja's environment options. */
export interface TemplateOptions {
  /** Drop the first newline after a block tag (Jinja's `trim_blocks`). Default `true`, as transformers sets it. */
  trimBlocks?: boolean;
  /** Strip spaces and tabs before a block tag at the start of a line (`lstrip_blocks`). Default `true`. */
  lstripBlocks?: boolean;
  /** Keep the source's final newline (`keep_trailing_newline`). Default `false`. */
  keepTrailingNewline?: boolean;
}

/** What a render sees besides its variables. */
export interface RenderOptions {
  /** The clock `strftime_now` reads (local time fields). Default: the current time. */
  now?: Date;
  /**
   * The longest string the render may build, in UTF-16 code units (the output, or any value on the way). Past it the
   * render raises `MemoryError`, as CPython does when memory runs out. Default 2^25 (32 Mi).
   */
  maxOutputLength?: number;
  /**
   * The work the render may do: one step per loop iteration and call, and one per character or item a filter or
   * method is given. Past it the render raises `StepLimitError`. Default 2^26.
   */
  maxSteps?: number;
  /**
   * A work meter (`createWorkMeter` from `@toolcall/core`) the render charges its steps to; its limit, when it has
   * one, also bounds the render. Tests use it to count a render's work.
   */
  meter?: WorkMeter;
}

const marker = Symbol.for("@toolcall/jinja/Template");

/**
 * The engine's own limits met in JavaScript, named as Python names them: a stack overflow is Python's recursion
 * limit (`RecursionError`), a string or array past the engine's size limit is `MemoryError`.
 */
function asTemplateError(error: unknown): unknown {
  if (!(error instanceof RangeError) || TemplateError.isInstance(error)) return error;
  if (/call stack/i.test(error.message))
    return new TemplateError("RecursionError", "maximum recursion depth exceeded");
  if (/invalid (string|array|typed array) length|allocation failed/i.test(error.message))
    return new TemplateError("MemoryError", "");
  return error;
}

/**
 * A compiled template. Rendering follows Hugging Face transformers' chat-template environment: Jinja2's immutable
 * sandbox, `loopcontrols`, `{% generation %}`, transformers' `tojson`, `raise_exception` and `strftime_now`.
 *
 * @example
 * const template = compileTemplate("{{ messages[0].content }}{{ 1.0 }}{{ [True, None] }}");
 * template.render({ messages: [{ content: "hi " }] }); // "hi 1.0[True, None]"
 */
export class Template {
  /** The statements, for tools that inspect a template. */
  readonly body: Stmt[];
  private readonly run: (scope: Scope) => string;
  private readonly globals: Scope;

  constructor(source: string, options: TemplateOptions = {}) {
    try {
      const tokens = tokenize(source, {
        trimBlocks: options.trimBlocks ?? true,
        lstripBlocks: options.lstripBlocks ?? true,
        keepTrailingNewline: options.keepTrailingNewline ?? false,
      });
      this.body = parse(tokens);
      const builtins: Builtins = defaultBuiltins();
      // Constant folding runs template code now: it gets a budget of its own, not what a last render left.
      startBudget({});
      this.run = compileStatements(this.body, builtins);
    } catch (error) {
      throw asTemplateError(error);
    }
    const globals = new Scope(null);
    for (const [name, value] of defaultGlobals()) globals.set(name, value);
    globals.set(
      "raise_exception",
      new PyFunction("raise_exception", (args, kwargs) => {
        const [message] = bind(
          { name: "raise_exception", params: [["message", REQUIRED]] },
          args,
          kwargs,
        ).values;
        return fail("TemplateError", pyStr(message));
      }),
    );
    this.globals = globals;
    Object.defineProperty(this, marker, { value: true });
  }

  /**
   * Renders with `variables` (plain JavaScript values; see {@link toPython} for how they map onto Python's).
   * Throws a {@link TemplateError} where Python would raise.
   */
  render(variables: Record<string, unknown>, options: RenderOptions = {}): string {
    const values = new Map<string, unknown>();
    try {
      for (const name of Object.keys(variables)) {
        const value = variables[name];
        if (value !== undefined) values.set(name, toPython(value));
      }
    } catch (error) {
      throw asTemplateError(error);
    }
    return this.renderConverted(values, options);
  }

  /**
   * Renders with variables already converted by {@link toPython}: engine values are never changed by a render (the
   * sandbox is immutable), so values converted once serve many renders. {@link ChatConversation} renders this way.
   * The values must not be changed between renders either: the engine keeps texts made from them (`tojson`).
   *
   * @example
   * const messages = toPython([{ role: "user", content: "hi" }]);
   * template.renderConverted(new Map([["messages", messages]])); // each render reuses `messages`
   */
  renderConverted(variables: ReadonlyMap<string, unknown>, options: RenderOptions = {}): string {
    const root = new Scope(this.globals);
    const now = options.now;
    root.set(
      "strftime_now",
      new PyFunction("strftime_now", (args) =>
        strftime(now ?? new Date(), expectString(args[0], "strftime() argument 1")),
      ),
    );
    const scope = new Scope(root, true);
    for (const [name, value] of variables) scope.set(name, value);
    // A render inside a render (a JavaScript function given as a variable that renders another template) gets its
    // own budgets and frame count; the outer render's are put back after it.
    const outer = { ...budget };
    const outerRuntime = { ...runtime };
    resetControl();
    startBudget(options);
    try {
      const text = this.run(scope);
      if (text.length > budget.maxOutputLength) outputExhausted();
      return text;
    } catch (error) {
      throw asTemplateError(error);
    } finally {
      options.meter?.charge(stepsTaken());
      Object.assign(budget, outer);
      Object.assign(runtime, outerRuntime);
    }
  }

  /** True for templates made by any copy of this class. */
  static isInstance(value: unknown): value is Template {
    return typeof value === "object" && value !== null && marker in value;
  }
}

/**
 * Compiles Jinja source once, for many renders.
 *
 * @example
 * compileTemplate("{% for m in messages %}{{ m.role }}\n{% endfor %}").render({ messages: [{ role: "user" }] });
 * // "user\n"
 */
export function compileTemplate(source: string, options: TemplateOptions = {}): Template {
  return new Template(source, options);
}
