import { callAttribute, callValue, getAttribute, getItem, iterate, PySlice } from "./access.js";
import type { CallArgs, Expr, Stmt, Target } from "./ast.js";
import type { Builtins, Filter } from "./builtins.js";
import { LoopContext } from "./loop-context.js";
import { hasMethod } from "./methods.js";
import { add, contains, eq, floordiv, mod, mul, neg, order, pos, pow, sub, truediv } from "./operators.js";
import { pyStr } from "./python-repr.js";
import { fail } from "./template-error.js";
import { Namespace, PyFunction, truthy, tuple, Undefined } from "./values.js";

/** Variables visible at a point of a render: this scope's own, then its parents'. */
export class Scope {
  readonly vars = new Map<string, unknown>();
  readonly parent: Scope | null;

  constructor(parent: Scope | null) {
    this.parent = parent;
  }

  /** The innermost value of `name`, or `undefined` when no scope has it. */
  get(name: string): unknown {
    let scope: Scope | null = this;
    do {
      const value = scope.vars.get(name);
      if (value !== undefined) return value;
      scope = scope.parent;
    } while (scope !== null);
    return undefined;
  }

  set(name: string, value: unknown): void {
    this.vars.set(name, value);
  }
}
type ExprFn = (scope: Scope) => unknown;
type StmtFn = (scope: Scope) => string;
type ArgsFn = (scope: Scope) => unknown[];
type KwargsFn = ((scope: Scope) => Map<string, unknown>) | null;

// `{% break %}` and `{% continue %}` travel up to their loop through this flag (renders are synchronous).
let control = 0;
const BREAK = 1;
const CONTINUE = 2;

/** Resets the loop-control flag before a render (a previous render may have thrown mid-loop). */
export function resetControl(): void {
  control = 0;
}

const EMPTY_ARGS: unknown[] = [];

/** Compiles statements into one function that renders them in a scope. */
export function compileStatements(body: Stmt[], builtins: Builtins): StmtFn {
  return new Compiler(builtins).block(body);
}

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

function unpack(value: unknown, count: number): unknown[] {
  const items = iterate(value);
  if (items.length < count)
    fail("ValueError", `not enough values to unpack (expected ${count}, got ${items.length})`);
  if (items.length > count) fail("ValueError", `too many values to unpack (expected ${count})`);
  return items;
}

function assign(target: Target, value: unknown, scope: Scope): void {
  switch (target.kind) {
    case "name":
      scope.set(target.name, value);
      return;
    case "tuple": {
      const items = unpack(value, target.items.length);
      target.items.forEach((item, i) => {
        assign(item, items[i], scope);
      });
      return;
    }
    case "nsref": {
      const ns = scope.get(target.name);
      if (!(ns instanceof Namespace))
        fail("TemplateRuntimeError", "cannot assign attribute on non-namespace object");
      ns.attributes.set(target.attr, value);
      return;
    }
    default: {
      const never: never = target;
      fail("TemplateSyntaxError", `unknown assignment target ${String(never)}`);
    }
  }
}

function compareOp(op: string, left: unknown, right: unknown): boolean {
  switch (op) {
    case "==":
      return eq(left, right);
    case "!=":
      return !eq(left, right);
    case "<":
      return order(left, right, op) < 0;
    case "<=":
      return order(left, right, op) <= 0;
    case ">":
      return order(left, right, op) > 0;
    case ">=":
      return order(left, right, op) >= 0;
    case "in":
      return contains(right, left);
    case "notin":
      return !contains(right, left);
    default:
      return fail("TemplateSyntaxError", `unknown comparison ${op}`);
  }
}

const BINARY: Record<string, (a: unknown, b: unknown) => unknown> = {
  "+": add,
  "-": sub,
  "*": mul,
  "/": truediv,
  "//": floordiv,
  "%": mod,
  "**": pow,
};

class Compiler {
  private readonly builtins: Builtins;

  constructor(builtins: Builtins) {
    this.builtins = builtins;
  }

  block(body: Stmt[]): StmtFn {
    const parts = body.map((stmt) => this.stmt(stmt));
    if (parts.length === 0) return () => "";
    if (parts.length === 1) return parts[0] as StmtFn;
    return (scope) => {
      let out = "";
      for (let i = 0; i < parts.length; i++) {
        out += (parts[i] as StmtFn)(scope);
        if (control !== 0) break;
      }
      return out;
    };
  }

  private stmt(stmt: Stmt): StmtFn {
    switch (stmt.kind) {
      case "output":
        return this.output(stmt.nodes);
      case "for":
        return this.forLoop(stmt);
      case "if": {
        const test = this.expr(stmt.test);
        const body = this.block(stmt.body);
        const otherwise = this.block(stmt.otherwise);
        return (scope) => (truthy(test(scope)) ? body(scope) : otherwise(scope));
      }
      case "set": {
        const value = this.expr(stmt.value);
        const target = stmt.target;
        if (target.kind === "name") {
          const name = target.name;
          return (scope) => {
            scope.set(name, value(scope));
            return "";
          };
        }
        return (scope) => {
          assign(target, value(scope), scope);
          return "";
        };
      }
      case "setblock": {
        const body = this.block(stmt.body);
        const filter = stmt.filter === null ? null : this.filterChain(stmt.filter);
        const target = stmt.target;
        return (scope) => {
          const text = body(new Scope(scope));
          assign(target, filter ? filter(text, scope) : text, scope);
          return "";
        };
      }
      case "macro": {
        const name = stmt.name;
        const make = this.macro(name, stmt.params, stmt.defaults, stmt.body);
        return (scope) => {
          scope.set(name, make(scope));
          return "";
        };
      }
      case "callblock": {
        const makeCaller = this.macro("caller", stmt.params, stmt.defaults, stmt.body);
        const call = stmt.call;
        if (call.kind !== "call") return fail("TemplateSyntaxError", "expected call");
        const callee = this.expr(call.node);
        const args = this.args(call.args);
        const kwargs = this.kwargs(call.args);
        return (scope) => {
          const named = kwargs ? kwargs(scope) : new Map<string, unknown>();
          named.set("caller", makeCaller(scope));
          return pyStr(callValue(callee(scope), args(scope), named));
        };
      }
      case "filterblock": {
        const body = this.block(stmt.body);
        const filter = this.filterChain(stmt.filter);
        return (scope) => pyStr(filter(body(new Scope(scope)), scope));
      }
      case "with": {
        const values = stmt.values.map((v) => this.expr(v));
        const targets = stmt.targets;
        const body = this.block(stmt.body);
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
        const body = this.block(stmt.body);
        return (scope) => body(new Scope(scope));
      }
      case "break":
        return () => {
          control = BREAK;
          return "";
        };
      case "continue":
        return () => {
          control = CONTINUE;
          return "";
        };
      default: {
        const never: never = stmt;
        return never;
      }
    }
  }

  private output(nodes: (string | Expr)[]): StmtFn {
    const parts = nodes.map((node) => (typeof node === "string" ? node : this.expr(node)));
    if (parts.length === 1) {
      const only = parts[0] as string | ExprFn;
      if (typeof only === "string") return () => only;
      return (scope) => pyStr(only(scope));
    }
    return (scope) => {
      let out = "";
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i] as string | ExprFn;
        out += typeof part === "string" ? part : pyStr(part(scope));
      }
      return out;
    };
  }

  private forLoop(stmt: Extract<Stmt, { kind: "for" }>): StmtFn {
    if (stmt.recursive) fail("TemplateSyntaxError", "recursive loops are not supported");
    const iter = this.expr(stmt.iter);
    const body = this.block(stmt.body);
    const otherwise = stmt.otherwise.length > 0 ? this.block(stmt.otherwise) : null;
    const test = stmt.test === null ? null : this.expr(stmt.test);
    const target = stmt.target;
    const simpleName = target.kind === "name" ? target.name : null;
    return (scope) => {
      let items = iterate(iter(scope));
      if (test !== null) {
        items = items.filter((item) => {
          const inner = new Scope(scope);
          assign(target, item, inner);
          return truthy(test(inner));
        });
      }
      if (items.length === 0) return otherwise === null ? "" : otherwise(new Scope(scope));
      const loop = new LoopContext(items);
      let out = "";
      for (let i = 0; i < items.length; i++) {
        loop.index0 = i;
        const inner = new Scope(scope);
        inner.set("loop", loop);
        if (simpleName !== null) inner.set(simpleName, items[i]);
        else assign(target, items[i], inner);
        out += body(inner);
        if (control !== 0) {
          const signal = control;
          control = 0;
          if (signal === BREAK) break;
        }
      }
      return out;
    };
  }

  private macro(
    name: string,
    params: string[],
    defaults: Expr[],
    body: Stmt[],
  ): (scope: Scope) => PyFunction {
    const render = this.block(body);
    const defaultFns = defaults.map((d) => this.expr(d));
    const firstDefault = params.length - defaults.length;
    const used = referencedNames(body);
    const catchVarargs = used.has("varargs");
    const catchKwargs = used.has("kwargs");
    const arity = params.length;
    return (defining) =>
      new PyFunction(
        name,
        (args, kwargs) => {
          const scope = new Scope(defining);
          for (let i = 0; i < arity; i++) {
            const param = params[i] as string;
            let value: unknown;
            if (i < args.length) {
              value = args[i];
              if (kwargs?.has(param))
                fail("TypeError", `macro '${name}' got multiple values for argument '${param}'`);
            } else if (kwargs?.has(param)) value = kwargs.get(param);
            else if (i >= firstDefault) value = (defaultFns[i - firstDefault] as ExprFn)(scope);
            else value = new Undefined({ hint: `parameter '${param}' was not provided`, name: param });
            scope.set(param, value);
          }
          if (args.length > arity) {
            if (!catchVarargs) {
              fail("TypeError", `macro '${name}' takes not more than ${arity} argument(s)`);
            }
          }
          if (catchVarargs) scope.set("varargs", tuple(args.slice(arity)));
          const extra = new Map<unknown, unknown>();
          if (kwargs) {
            for (const [k, v] of kwargs) {
              if (k === "caller") {
                scope.set("caller", v);
                continue;
              }
              if (!params.includes(k)) {
                if (!catchKwargs) fail("TypeError", `macro '${name}' takes no keyword argument '${k}'`);
                extra.set(k, v);
              }
            }
          }
          if (catchKwargs) scope.set("kwargs", extra);
          return render(scope);
        },
        "Macro",
      );
  }

  private args(call: CallArgs): ArgsFn {
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

  private kwargs(call: CallArgs): KwargsFn {
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

  /** A filter chain applied to a given value (for `{% filter %}` and `{% set x | f %}`). */
  private filterChain(expr: Expr): (value: unknown, scope: Scope) => unknown {
    const chain: Expr[] = [];
    let node: Expr | null = expr;
    while (node !== null && node.kind === "filter") {
      chain.unshift(node);
      node = node.node;
    }
    const steps = chain.map((f) => {
      if (f.kind !== "filter") return fail("TemplateSyntaxError", "expected a filter");
      const filter = this.lookupFilter(f.name);
      const args = this.args(f.args);
      const kwargs = this.kwargs(f.args);
      return (value: unknown, scope: Scope) =>
        filter(value, args(scope), kwargs ? kwargs(scope) : null, this.builtins);
    });
    return (value, scope) => steps.reduce((v, step) => step(v, scope), value);
  }

  private lookupFilter(name: string): Filter {
    const filter = this.builtins.filters.get(name);
    if (filter === undefined) return fail("TemplateAssertionError", `No filter named '${name}'.`);
    return filter;
  }

  expr(node: Expr): ExprFn {
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
          for (const [k, v] of pairs) out.set(k(scope), v(scope));
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
        return (scope) => getItem(obj(scope), key(scope));
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
          return (scope) => callAttribute(obj(scope), attr, args(scope), kwargs ? kwargs(scope) : null);
        }
        const callee = this.expr(node.node);
        return (scope) => callValue(callee(scope), args(scope), kwargs ? kwargs(scope) : null);
      }
      case "filter": {
        if (node.node === null) return fail("TemplateSyntaxError", "filter without a value");
        const filter = this.lookupFilter(node.name);
        const value = this.expr(node.node);
        const args = this.args(node.args);
        const kwargs = this.kwargs(node.args);
        const builtins = this.builtins;
        return (scope) => filter(value(scope), args(scope), kwargs ? kwargs(scope) : null, builtins);
      }
      case "test": {
        const test = this.builtins.tests.get(node.name);
        if (test === undefined) return fail("TemplateAssertionError", `No test named '${node.name}'.`);
        const value = this.expr(node.node);
        const args = this.args(node.args);
        const kwargs = this.kwargs(node.args);
        const builtins = this.builtins;
        return (scope) => test(value(scope), args(scope), kwargs ? kwargs(scope) : null, builtins);
      }
      case "binop": {
        const op = BINARY[node.op];
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
      case "and": {
        const left = this.expr(node.left);
        const right = this.expr(node.right);
        return (scope) => {
          const l = left(scope);
          return truthy(l) ? right(scope) : l;
        };
      }
      case "or": {
        const left = this.expr(node.left);
        const right = this.expr(node.right);
        return (scope) => {
          const l = left(scope);
          return truthy(l) ? l : right(scope);
        };
      }
      case "concat": {
        const parts = node.nodes.map((n) => this.expr(n));
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
      case "cond": {
        const test = this.expr(node.test);
        const value = this.expr(node.value);
        const otherwise = node.otherwise === null ? null : this.expr(node.otherwise);
        return (scope) => {
          if (truthy(test(scope))) return value(scope);
          if (otherwise !== null) return otherwise(scope);
          return new Undefined({
            hint: "the inline if-expression evaluated to false and no else section was defined.",
          });
        };
      }
      default: {
        const never: never = node;
        return never;
      }
    }
  }
}
