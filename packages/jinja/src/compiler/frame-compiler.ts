import { callValue } from "../runtime/attribute-access.js";
import { defineMacro, type Macro } from "../runtime/macro.js";
import { Undefined } from "../runtime/python-values.js";
import type { Scope } from "../runtime/scope.js";
import { fail } from "../runtime/template-error.js";
import type { Expr, Stmt } from "./ast.js";
import { ExpressionCompiler, type ExprFn } from "./compile-expression.js";
import { FrameSymbols } from "./frame-symbols.js";

/** A compiled statement list: renders in a scope, returns the text. */
export type StmtFn = (scope: Scope) => string;

function walk(node: unknown, visit: (node: { kind?: unknown; name?: unknown }) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
  } else if (typeof node === "object" && node !== null) {
    visit(node as { kind?: unknown; name?: unknown });
    for (const value of Object.values(node)) walk(value, visit);
  }
}

function referencedNames(body: Stmt[]): Set<string> {
  const names = new Set<string>();
  walk(body, (node) => {
    if (node.kind === "name" && typeof node.name === "string") names.add(node.name);
  });
  return names;
}

/**
 * What the statement compiler (compile-statements.ts) knows of Jinja2's generated Python code: its frames (which names start
 * undefined where, FrameSymbols), whether a `break` sits inside a Python loop, the first `SyntaxError` Python would
 * raise on it, and the macros (call blocks' callers included) that become Python functions.
 */
export abstract class FrameCompiler extends ExpressionCompiler {
  /** The names each enclosing frame knows (Jinja's `refs`), innermost last. */
  protected frames: ReadonlySet<string>[] = [];
  /** Whether a `break` here would sit inside a Python `for` of Jinja's generated code. */
  protected inLoop = false;
  /** The first error Python's compiler raises on the generated code (after Jinja's own compile errors). */
  protected pythonSyntaxError: string | null = null;
  /** Whether statements compiled now are the template's top level (Jinja's `frame.toplevel`), `if`s included. */
  protected atRoot = false;

  abstract block(body: Stmt[]): StmtFn;

  protected abstract printer(): (value: unknown) => string;

  /** Statements compiled inside (`true`) or outside a Python loop of the generated code: a loop's, a macro's. */
  protected inLoopBody(inLoop: boolean, body: Stmt[]): StmtFn {
    const saved = this.inLoop;
    this.inLoop = inLoop;
    try {
      return this.block(body);
    } finally {
      this.inLoop = saved;
    }
  }

  /**
   * Compiles a frame's body (`compile`) knowing what the frame's statements read and assign: the names it assigns
   * before reading them start undefined in the frame's scope (see FrameSymbols); `params` are bound by the caller.
   */
  protected frame(
    body: readonly Stmt[],
    params: readonly string[],
    compile: () => StmtFn,
    visitFirst?: (symbols: FrameSymbols) => void,
  ): StmtFn {
    const symbols = new FrameSymbols([...this.frames], params);
    visitFirst?.(symbols);
    symbols.visitStatements(body);
    this.frames.push(symbols.refs);
    const atRoot = this.atRoot;
    this.atRoot = false;
    let run: StmtFn;
    try {
      run = compile();
    } finally {
      this.frames.pop();
      this.atRoot = atRoot;
    }
    const names = symbols.undefinedAtEntry();
    if (names.length === 0) return run;
    const marks = names.map((name) => new Undefined({ name }));
    return (scope) => {
      for (let i = 0; i < names.length; i++) scope.set(names[i] as string, marks[i]);
      return run(scope);
    };
  }

  protected callBlock(stmt: Extract<Stmt, { kind: "callblock" }>): StmtFn {
    const makeCaller = this.macro("caller", stmt.params, stmt.defaults, stmt.body, true);
    const call = stmt.call;
    if (call.kind !== "call") return fail("TemplateSyntaxError", "expected call");
    const callee = this.expr(call.node);
    const args = this.args(call.args);
    const kwargs = this.kwargs(call.args);
    const print = this.printer();
    return (scope) => {
      const fn = callee(scope);
      const positional = args(scope);
      const named = kwargs ? kwargs(scope) : new Map<string, unknown>();
      named.set("caller", makeCaller(scope));
      return print(callValue(fn, positional, named));
    };
  }

  protected macro(
    name: string,
    params: string[],
    defaults: Expr[],
    body: Stmt[],
    anonymous = false,
  ): (scope: Scope) => Macro {
    const seen = new Set<string>();
    for (const param of params) {
      // Jinja names a macro's parameters `l_<frame level>_<name>` in the Python function it generates.
      if (seen.has(param))
        this.pythonSyntaxError ??= `duplicate argument 'l_${this.frames.length}_${param}' in function definition`;
      seen.add(param);
    }
    let defaultFns: ExprFn[] = [];
    const render = this.withSoft(false, () =>
      this.frame(
        body,
        [...params, "caller", "varargs", "kwargs"],
        () => {
          defaultFns = defaults.map((d) => this.expr(d));
          return this.inLoopBody(false, body);
        },
        (symbols) => {
          for (const d of defaults) symbols.visitExpr(d);
        },
      ),
    );
    const used = referencedNames(body);
    return defineMacro({
      name,
      anonymous,
      params,
      defaults: defaultFns,
      render,
      wrap: this.autoescape,
      catchVarargs: used.has("varargs"),
      catchKwargs: used.has("kwargs"),
      usesCaller: used.has("caller") && !params.includes("caller"),
    });
  }
}
