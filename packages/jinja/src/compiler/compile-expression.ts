import type { Builtins, Filter } from "../filters/filter-registry.js";
import { dictSet, iterate, PySlice, sliceItem } from "../runtime/access.js";
import { callAttribute, callValue, getAttribute, getItem } from "../runtime/attribute-access.js";
import { escapeText, Markup } from "../runtime/markup.js";
import { hasMethod } from "../runtime/object-methods.js";
import { BINARY_OPERATORS, compareOp, neg, pos } from "../runtime/operators.js";
import { pyStr } from "../runtime/python-repr.js";
import { truthy, tuple, Undefined } from "../runtime/python-values.js";
import { chargeSteps, sizeOf } from "../runtime/render-budget.js";
import type { Scope } from "../runtime/scope.js";
import { fail } from "../runtime/template-error.js";
import type { CallArgs, Expr } from "./ast.js";
import { ConstantFolder, IMPOSSIBLE } from "./const-fold.js";

export type ExprFn = (scope: Scope) => unknown;
export type ArgsFn = (scope: Scope) => unknown[];
export type KwargsFn = ((scope: Scope) => Map<string, unknown>) | null;

const EMPTY_ARGS: unknown[] = [];

/** markupsafe's `escape()` applied to a printed value (autoescape on). */
export function escapeOutput(value: unknown): string {
  return value instanceof Markup ? value.text : escapeText(pyStr(value));
}

/**
 * Compiles expressions into closures. It tracks what Jinja's code generator tracks where it matters to the
 * outcome: a "soft" frame (inside an `if` or an inline `if`), where an unknown filter or test is an error only
 * when it runs, and the autoescape setting of the block being compiled.
 */
export class ExpressionCompiler {
  protected readonly builtins: Builtins;
  /** The builtins with autoescape on (filters that read `eval_ctx.autoescape` see it). */
  protected readonly escaping: Builtins;
  /** Inside an `if` or a conditional expression: unknown filters and tests raise only when they run. */
  protected soft = false;
  /** Autoescape is on for the block being compiled. */
  protected autoescape = false;
  /** Jinja's compile-time evaluation of constant expressions, with autoescape off and on (its `eval_ctx`). */
  private readonly folders: readonly [ConstantFolder, ConstantFolder];

  constructor(builtins: Builtins) {
    this.builtins = builtins;
    this.escaping = { ...builtins, autoescape: true };
    this.folders = [new ConstantFolder(builtins), new ConstantFolder(this.escaping)];
  }

  /** The constant folder of the block being compiled: filters that read autoescape fold as they would run. */
  protected get folder(): ConstantFolder {
    return this.folders[this.autoescape ? 1 : 0];
  }

  /** Compiles `body` with the soft flag set to `soft`, restoring it afterwards. */
  protected withSoft<T>(soft: boolean, body: () => T): T {
    const saved = this.soft;
    this.soft = soft;
    try {
      return body();
    } finally {
      this.soft = saved;
    }
  }

  protected args(call: CallArgs): ArgsFn {
    const fns = call.args.map((a) => this.expr(a));
    const dyn = call.dynArgs === null ? null : this.expr(call.dynArgs);
    if (dyn === null) {
      if (fns.length === 0) return () => EMPTY_ARGS;
      if (fns.length === 1) {
        const only = fns[0] as ExprFn;
        return (scope) => [only(scope)];
      }
      return (scope) => fns.map((f) => f(scope));
    }
    return (scope) => [...fns.map((f) => f(scope)), ...iterate(dyn(scope))];
  }

  protected kwargs(call: CallArgs): KwargsFn {
    if (call.kwargs.length === 0 && call.dynKwargs === null) return null;
    const fns = call.kwargs.map((k) => [k.name, this.expr(k.value)] as const);
    const dyn = call.dynKwargs === null ? null : this.expr(call.dynKwargs);
    return (scope) => {
      const out = new Map<string, unknown>();
      for (const [name, fn] of fns) out.set(name, fn(scope));
      if (dyn !== null) {
        const extra = dyn(scope);
        if (extra instanceof Map) for (const [k, v] of extra) out.set(String(k), v);
      }
      return out;
    };
  }

  /** A filter by name: compile-time error outside soft frames, a runtime error inside them (Jinja 3.1). */
  protected lookupFilter(name: string): Filter {
    const filter = this.builtins.filters.get(name);
    if (filter !== undefined) return filter;
    if (!this.soft) return fail("TemplateAssertionError", `No filter named '${name}'.`);
    return () => fail("TemplateRuntimeError", `No filter named '${name}' found.`);
  }

  private lookupTest(name: string): Filter {
    const test = this.builtins.tests.get(name);
    if (test !== undefined) return test;
    if (!this.soft) return fail("TemplateAssertionError", `No test named '${name}'.`);
    return () => fail("TemplateRuntimeError", `No test named '${name}' found.`);
  }

  /** A filter chain applied to a given value (for `{% filter %}` and `{% set x | f %}`). */
  protected filterChain(expr: Expr): (value: unknown, scope: Scope) => unknown {
    const chain: Expr[] = [];
    let node: Expr | null = expr;
    while (node !== null && node.kind === "filter") {
      chain.unshift(node);
      node = node.node;
    }
    const env = this.autoescape ? this.escaping : this.builtins;
    const steps = chain.map((f) => {
      if (f.kind !== "filter") return fail("TemplateSyntaxError", "expected a filter");
      const filter = this.lookupFilter(f.name);
      const args = this.args(f.args);
      const kwargs = this.kwargs(f.args);
      return (value: unknown, scope: Scope) => {
        chargeSteps(sizeOf(value));
        const result = filter(value, args(scope), kwargs ? kwargs(scope) : null, env);
        chargeSteps(sizeOf(result));
        return result;
      };
    });
    return (value, scope) => steps.reduce((v, step) => step(v, scope), value);
  }

  private andExpr(leftNode: Expr, rightNode: Expr): ExprFn {
    const left = this.expr(leftNode);
    const right = this.expr(rightNode);
    return (scope) => {
      const l = left(scope);
      return truthy(l) ? right(scope) : l;
    };
  }

  private orExpr(leftNode: Expr, rightNode: Expr): ExprFn {
    const left = this.expr(leftNode);
    const right = this.expr(rightNode);
    return (scope) => {
      const l = left(scope);
      return truthy(l) ? l : right(scope);
    };
  }

  expr(node: Expr): ExprFn {
    if (node.kind !== "const" && node.kind !== "name") {
      const folded = this.folder.folded(node);
      if (folded !== IMPOSSIBLE) return () => folded;
    }
    switch (node.kind) {
      case "const": {
        const value = node.value;
        return () => value;
      }
      case "name": {
        const name = node.name;
        const missing = new Undefined({ name });
        return (scope) => {
          const value = scope.get(name);
          return value === undefined ? missing : value;
        };
      }
      case "list": {
        const items = node.items.map((i) => this.expr(i));
        return (scope) => items.map((f) => f(scope));
      }
      case "tuple": {
        const items = node.items.map((i) => this.expr(i));
        return (scope) => tuple(items.map((f) => f(scope)));
      }
      case "dict": {
        const pairs = node.pairs.map(([k, v]) => [this.expr(k), this.expr(v)] as const);
        return (scope) => {
          const out = new Map<unknown, unknown>();
          for (const [k, v] of pairs) dictSet(out, k(scope), v(scope));
          return out;
        };
      }
      case "getattr": {
        const obj = this.expr(node.node);
        const attr = node.attr;
        const dictMethod = hasMethod(new Map(), attr);
        return (scope) => {
          const value = obj(scope);
          if (!dictMethod && value instanceof Map) {
            const found = value.get(attr);
            if (found !== undefined) return found;
          }
          return getAttribute(value, attr);
        };
      }
      case "getitem": {
        const obj = this.expr(node.node);
        const arg = node.arg;
        if (arg.kind === "const" && typeof arg.value === "string") {
          const key = arg.value;
          return (scope) => {
            const value = obj(scope);
            if (value instanceof Map) {
              const found = value.get(key);
              if (found !== undefined) return found;
            }
            return getItem(value, key);
          };
        }
        const key = this.expr(arg);
        if (arg.kind === "slice") {
          return (scope) => {
            const value = obj(scope);
            return sliceItem(value, key(scope) as PySlice);
          };
        }
        return (scope) => {
          const value = obj(scope);
          return getItem(value, key(scope));
        };
      }
      case "slice": {
        const start = node.start === null ? null : this.expr(node.start);
        const stop = node.stop === null ? null : this.expr(node.stop);
        const step = node.step === null ? null : this.expr(node.step);
        return (scope) =>
          new PySlice(start ? start(scope) : null, stop ? stop(scope) : null, step ? step(scope) : null);
      }
      case "call": {
        const args = this.args(node.args);
        const kwargs = this.kwargs(node.args);
        if (node.node.kind === "getattr") {
          const obj = this.expr(node.node.node);
          const attr = node.node.attr;
          return (scope) => {
            const target = obj(scope);
            if (target instanceof Undefined) target.fail();
            return callAttribute(target, attr, args(scope), kwargs ? kwargs(scope) : null);
          };
        }
        const callee = this.expr(node.node);
        return (scope) => {
          const fn = callee(scope);
          return callValue(fn, args(scope), kwargs ? kwargs(scope) : null);
        };
      }
      case "filter": {
        if (node.node === null) return fail("TemplateSyntaxError", "filter without a value");
        const filter = this.lookupFilter(node.name);
        const value = this.expr(node.node);
        const args = this.args(node.args);
        const kwargs = this.kwargs(node.args);
        const env = this.autoescape ? this.escaping : this.builtins;
        return (scope) => {
          const input = value(scope);
          chargeSteps(sizeOf(input));
          const result = filter(input, args(scope), kwargs ? kwargs(scope) : null, env);
          chargeSteps(sizeOf(result));
          return result;
        };
      }
      case "test": {
        const test = this.lookupTest(node.name);
        const value = this.expr(node.node);
        const args = this.args(node.args);
        const kwargs = this.kwargs(node.args);
        const env = this.builtins;
        return (scope) => test(value(scope), args(scope), kwargs ? kwargs(scope) : null, env);
      }
      case "binop": {
        const op = BINARY_OPERATORS[node.op];
        if (op === undefined) return fail("TemplateSyntaxError", `unknown operator ${node.op}`);
        const left = this.expr(node.left);
        const right = this.expr(node.right);
        return (scope) => op(left(scope), right(scope));
      }
      case "unary": {
        const value = this.expr(node.node);
        return node.op === "-" ? (scope) => neg(value(scope)) : (scope) => pos(value(scope));
      }
      case "not": {
        const value = this.expr(node.node);
        return (scope) => !truthy(value(scope));
      }
      case "and":
        return this.andExpr(node.left, node.right);
      case "or":
        return this.orExpr(node.left, node.right);
      case "concat": {
        const parts = node.nodes.map((n) => this.expr(n));
        if (this.autoescape)
          return (scope) => new Markup(parts.map((part) => escapeOutput(part(scope))).join(""));
        return (scope) => {
          let out = "";
          for (const part of parts) out += pyStr(part(scope));
          return out;
        };
      }
      case "compare": {
        const first = this.expr(node.first);
        const ops = node.ops.map((o) => ({ op: o.op, fn: this.expr(o.node) }));
        if (ops.length === 1) {
          const { op, fn } = ops[0] as { op: string; fn: ExprFn };
          return (scope) => compareOp(op, first(scope), fn(scope));
        }
        return (scope) => {
          let left = first(scope);
          for (const { op, fn } of ops) {
            const right = fn(scope);
            if (!compareOp(op, left, right)) return false;
            left = right;
          }
          return true;
        };
      }
      case "cond":
        return this.withSoft(true, () => {
          const test = this.expr(node.test);
          const value = this.expr(node.value);
          const otherwise = node.otherwise === null ? null : this.expr(node.otherwise);
          const hint = `the inline if-expression on line ${node.line} evaluated to false and no else section was defined.`;
          return (scope: Scope) => {
            if (truthy(test(scope))) return value(scope);
            if (otherwise !== null) return otherwise(scope);
            return new Undefined({ hint });
          };
        });
      default: {
        const never: never = node;
        return never;
      }
    }
  }
}
