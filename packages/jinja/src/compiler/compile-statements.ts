import type { Builtins } from "../filters/filter-registry.js";
import { itemPairs, SELECT_FILTERS } from "../filters/filters-select.js";
import { iterable } from "../runtime/access.js";
import { LoopContext } from "../runtime/loop-context.js";
import { Markup } from "../runtime/markup.js";
import { DONE, PyIterator, puller } from "../runtime/py-iterator.js";
import { pyStr } from "../runtime/python-repr.js";
import { truthy } from "../runtime/python-values.js";
import { budget, chargeStep, outputExhausted } from "../runtime/render-budget.js";
import { BREAK, CONTINUE, enterFrames, LOOP_FRAMES, leaveFrames, runtime, Scope } from "../runtime/scope.js";
import { fail } from "../runtime/template-error.js";
import { TemplateReference } from "../runtime/template-reference.js";
import { assign, targetNames } from "./assign-target.js";
import type { Expr, Stmt } from "./ast.js";
import { type ExprFn, escapeOutput } from "./compile-expression.js";
import { IMPOSSIBLE } from "./const-fold.js";
import { FrameCompiler, type StmtFn } from "./frame-compiler.js";

export { resetRuntime as resetControl, Scope } from "../runtime/scope.js";

const DEFAULT_ITEMS = SELECT_FILTERS.items;

/** A top-level assignment's names, copied from the root's scope to the template-level one (Jinja's context). */
function exportNames(names: readonly string[], scope: Scope): void {
  for (const name of names) scope.top.set(name, scope.vars.get(name));
}

/** Compiles statements into one function that renders them in a scope. */
export function compileStatements(body: Stmt[], builtins: Builtins): StmtFn {
  return new Compiler(builtins).template(body);
}

/** True when a block statement is anywhere in `body`. */
function hasBlock(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasBlock);
  if (typeof node !== "object" || node === null) return false;
  if ((node as { kind?: unknown }).kind === "block") return true;
  return Object.values(node).some(hasBlock);
}

class Compiler extends FrameCompiler {
  private readonly blocks = new Map<string, (scope: Scope) => string>();
  /**
   * True for a template with blocks: its top level runs in a scope of its own (Jinja's root function's locals) below
   * the template-level one (Jinja's context, which blocks read), and its assignments go to both, as Jinja's do. A
   * block before a top-level `set` of `x` then reads the given `x`, not the root's local, unassigned yet.
   */
  private rootLocals = false;

  template(body: Stmt[]): StmtFn {
    this.rootLocals = hasBlock(body);
    const run = this.frame(body, [], () => {
      this.atRoot = true;
      return this.block(body);
    });
    if (this.pythonSyntaxError !== null) fail("SyntaxError", this.pythonSyntaxError);
    if (this.blocks.size === 0) return run;
    const blocks = this.blocks;
    return (scope) => {
      scope.set("self", new TemplateReference(blocks, scope.top));
      return run(new Scope(scope));
    };
  }

  /** Whether an assignment compiled now also goes to the template-level scope (a top-level one, with blocks). */
  private exportsToContext(): boolean {
    return this.atRoot && this.rootLocals;
  }

  override block(body: Stmt[]): StmtFn {
    const parts = body.map((stmt) => this.stmt(stmt));
    if (parts.length === 0) return () => "";
    if (parts.length === 1) return parts[0] as StmtFn;
    return (scope) => {
      let out = "";
      for (let i = 0; i < parts.length; i++) {
        out += (parts[i] as StmtFn)(scope);
        if (out.length > budget.maxOutputLength) outputExhausted();
        if (runtime.control !== 0) break;
      }
      return out;
    };
  }

  /** A body compiled in a new (not soft) frame: a loop's, a macro's, a block's. */
  private inner(body: Stmt[], params: readonly string[] = []): StmtFn {
    return this.withSoft(false, () => this.frame(body, params, () => this.block(body)));
  }

  private stmt(stmt: Stmt): StmtFn {
    switch (stmt.kind) {
      case "output":
        return this.output(stmt.nodes);
      case "for":
        return this.forLoop(stmt);
      case "if":
        return this.withSoft(true, () => {
          const test = this.expr(stmt.test);
          const body = this.block(stmt.body);
          const otherwise = this.block(stmt.otherwise);
          return (scope: Scope) => (truthy(test(scope)) ? body(scope) : otherwise(scope));
        });
      case "set": {
        const value = this.expr(stmt.value);
        const target = stmt.target;
        const exported = this.exportsToContext() ? targetNames(target) : null;
        if (target.kind === "name" && exported === null) {
          const name = target.name;
          return (scope) => {
            scope.set(name, value(scope));
            return "";
          };
        }
        return (scope) => {
          assign(target, value(scope), scope);
          if (exported !== null) exportNames(exported, scope);
          return "";
        };
      }
      case "setblock":
        return this.withSoft(false, () => {
          const exported = this.exportsToContext() ? targetNames(stmt.target) : null;
          const body = this.frame(stmt.body, [], () => this.block(stmt.body));
          const filter = stmt.filter === null ? null : this.filterChain(stmt.filter);
          const target = stmt.target;
          const wrap = this.autoescape;
          return (scope: Scope) => {
            const text = body(new Scope(scope));
            const value = wrap ? new Markup(text) : text;
            assign(target, filter ? filter(value, scope) : value, scope);
            if (exported !== null) exportNames(exported, scope);
            return "";
          };
        });
      case "macro": {
        const name = stmt.name;
        const exported = this.exportsToContext() ? [name] : null;
        const make = this.macro(name, stmt.params, stmt.defaults, stmt.body);
        return (scope) => {
          scope.set(name, make(scope));
          if (exported !== null) exportNames(exported, scope);
          return "";
        };
      }
      case "callblock":
        return this.callBlock(stmt);
      case "filterblock":
        return this.withSoft(false, () => {
          const body = this.frame(stmt.body, [], () => this.block(stmt.body));
          const filter = this.filterChain(stmt.filter);
          const wrap = this.autoescape;
          const print = this.printer();
          return (scope: Scope) => {
            const text = body(new Scope(scope));
            return print(filter(wrap ? new Markup(text) : text, scope));
          };
        });
      case "with": {
        const values = stmt.values.map((v) => this.expr(v));
        const targets = stmt.targets;
        const body = this.inner(
          stmt.body,
          targets.flatMap((t) => targetNames(t)),
        );
        return (scope) => {
          const evaluated = values.map((v) => v(scope));
          const inner = new Scope(scope);
          targets.forEach((t, i) => {
            assign(t, evaluated[i], inner);
          });
          return body(inner);
        };
      }
      case "scope": {
        const body = this.inner(stmt.body);
        return (scope) => body(new Scope(scope));
      }
      case "block": {
        if (this.blocks.has(stmt.name))
          return fail("TemplateAssertionError", `block '${stmt.name}' defined twice`);
        // A block is a frame of its own, with no enclosing one (Jinja renders it from the context).
        const enclosing = this.frames;
        const inLoop = this.inLoop;
        this.frames = [];
        this.inLoop = false;
        let body: StmtFn;
        try {
          body = this.inner(stmt.body);
        } finally {
          this.frames = enclosing;
          this.inLoop = inLoop;
        }
        const scoped = stmt.scoped;
        const render = (scope: Scope) => body(new Scope(scope));
        this.blocks.set(stmt.name, (top) => render(top));
        return (scope) => render(scoped ? scope : scope.top);
      }
      case "load": {
        const template = this.expr(stmt.template);
        return (scope) => {
          template(scope);
          return fail("TypeError", "no loader for this environment specified");
        };
      }
      case "autoescape":
        return this.autoescapeBlock(stmt.value, stmt.body);
      case "break":
      case "continue": {
        if (!this.inLoop)
          this.pythonSyntaxError ??=
            stmt.kind === "break" ? "'break' outside loop" : "'continue' not properly in loop";
        const signal = stmt.kind === "break" ? BREAK : CONTINUE;
        return () => {
          runtime.control = signal;
          return "";
        };
      }
      default: {
        const never: never = stmt;
        return never;
      }
    }
  }

  private autoescapeBlock(value: Expr, body: Stmt[]): StmtFn {
    const constant = value.kind === "const" ? truthy(value.value) : null;
    const compileWith = (on: boolean) => {
      const saved = this.autoescape;
      this.autoescape = on;
      try {
        return this.frame(body, [], () => this.block(body));
      } finally {
        this.autoescape = saved;
      }
    };
    if (constant !== null) {
      const run = compileWith(constant);
      return (scope) => run(new Scope(scope));
    }
    const test = this.expr(value);
    const on = compileWith(true);
    const off = compileWith(false);
    return (scope) => (truthy(test(scope)) ? on : off)(new Scope(scope));
  }

  /** Jinja evaluates a constant `{{ }}` child to text at compile time; where that fails, it runs at render time. */
  private constantText(node: Expr, print: (value: unknown) => string): string | undefined {
    const value = this.folder.raw(node);
    if (value === IMPOSSIBLE) return undefined;
    try {
      return print(value);
    } catch {
      return undefined;
    }
  }

  /** How `{{ }}` prints a value here: `str()`, or escaped when autoescape is on. */
  protected printer(): (value: unknown) => string {
    return this.autoescape ? escapeOutput : pyStr;
  }

  private output(nodes: (string | Expr)[]): StmtFn {
    const print = this.printer();
    const parts = nodes.map((node) =>
      typeof node === "string" ? node : (this.constantText(node, print) ?? this.expr(node)),
    );
    if (parts.length === 1) {
      const only = parts[0] as string | ExprFn;
      if (typeof only === "string") return () => only;
      return (scope) => print(only(scope));
    }
    return (scope) => {
      let out = "";
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i] as string | ExprFn;
        out += typeof part === "string" ? part : print(part(scope));
      }
      if (out.length > budget.maxOutputLength) outputExhausted();
      return out;
    };
  }

  private forLoop(stmt: Extract<Stmt, { kind: "for" }>): StmtFn {
    if (targetNames(stmt.target).includes("loop"))
      fail("TemplateAssertionError", "Can't assign to special loop variable in for-loop target");
    // Jinja's code generator visits the loop filter, then the iterable (last for a recursive loop), the body and
    // the else block: the order compile-time errors come in.
    const test = stmt.test === null ? null : this.withSoft(false, () => this.expr(stmt.test as Expr));
    let iter = stmt.recursive ? null : this.loopSource(stmt.iter);
    const { body, otherwise } = this.withSoft(false, () => ({
      body: this.frame(stmt.body, [...targetNames(stmt.target), "loop"], () =>
        this.inLoopBody(true, stmt.body),
      ),
      otherwise:
        stmt.otherwise.length > 0 ? this.frame(stmt.otherwise, [], () => this.block(stmt.otherwise)) : null,
    }));
    iter ??= this.expr(stmt.iter);
    const target = stmt.target;
    const simpleName = target.kind === "name" ? target.name : null;
    const bind = (scope: Scope, item: unknown) => {
      if (simpleName !== null) scope.set(simpleName, item);
      else assign(target, item, scope);
    };
    const wrap = this.autoescape;
    const run = (scope: Scope, value: unknown, depth0: number, recurse: LoopContext["recurse"]): string => {
      let source = iterable(value);
      if (source instanceof PyIterator) source = source.takeAll() ?? source;
      let loop: LoopContext;
      if (test === null && Array.isArray(source)) {
        loop = new LoopContext({ items: source, depth0, recurse });
      } else {
        const pull = puller(source);
        const filtered =
          test === null && source instanceof PyIterator
            ? source
            : new PyIterator("generator", "fiter", () => {
                for (let item = pull(); item !== DONE; item = pull()) {
                  if (test === null) return item;
                  const inner = new Scope(scope);
                  bind(inner, item);
                  if (truthy(test(inner))) return item;
                }
                return DONE;
              });
        loop = new LoopContext({ items: [], pending: filtered, length: null, depth0, recurse });
      }
      let out = "";
      let iterated = false;
      for (let i = 0; loop.has(i); i++) {
        chargeStep();
        loop.index0 = i;
        const inner = new Scope(scope);
        inner.set("loop", loop);
        bind(inner, loop.items[i]);
        out += body(inner);
        if (out.length > budget.maxOutputLength) outputExhausted();
        // Jinja marks the loop as iterated at the end of the body: `break` or `continue` skips it, so a loop left
        // that way on every iteration still renders its `else` block.
        if (runtime.control === 0) iterated = true;
        else {
          const signal = runtime.control;
          runtime.control = 0;
          if (signal === BREAK) break;
        }
      }
      if (!iterated && otherwise !== null) out += otherwise(new Scope(scope));
      return out;
    };
    const source = iter;
    if (!stmt.recursive) return (scope) => run(scope, source(scope), 0, null);
    return (scope) => {
      const recurse = (value: unknown, depth: number): string | Markup => {
        // A render that raises is abandoned whole: the frame count needs no unwinding.
        enterFrames(LOOP_FRAMES);
        const text = run(scope, value, depth, recurse);
        leaveFrames(LOOP_FRAMES);
        return wrap ? new Markup(text) : text;
      };
      return run(scope, source(scope), 0, recurse);
    };
  }

  /**
   * A loop's iterable. `for k, v in x|items` takes the pairs as a list straight away: the generator `items` makes
   * cannot raise once started, so a loop draining it first is the same loop, without the generator.
   */
  private loopSource(iter: Expr): ExprFn {
    if (
      iter.kind === "filter" &&
      iter.name === "items" &&
      iter.node !== null &&
      iter.args.args.length === 0 &&
      iter.args.kwargs.length === 0 &&
      iter.args.dynArgs === null &&
      iter.args.dynKwargs === null &&
      this.builtins.filters.get("items") === DEFAULT_ITEMS
    ) {
      const value = this.expr(iter.node);
      return (scope) => itemPairs(value(scope));
    }
    return this.expr(iter);
  }
}
