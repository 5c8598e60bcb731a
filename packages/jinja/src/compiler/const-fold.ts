import type { Builtins } from "../filters/filter-registry.js";
import { dictSet, PySlice } from "../runtime/access.js";
import { getAttribute, getItem } from "../runtime/attribute-access.js";
import { Markup } from "../runtime/markup.js";
import { BINARY_OPERATORS, compareOp, neg, pos } from "../runtime/operators.js";
import { PyRange } from "../runtime/py-range.js";
import { pyStr } from "../runtime/python-repr.js";
import { PyFloat, truthy, tuple } from "../runtime/python-values.js";
import type { CallArgs, Expr } from "./ast.js";

/** What {@link constantValue} answers for an expression Jinja's optimizer cannot fold. */
export const IMPOSSIBLE: unique symbol = Symbol("impossible");

/** Filters that take the render context (`@pass_context`): Jinja never folds them. */
const CONTEXT_FILTERS = new Set(["map", "select", "reject", "selectattr", "rejectattr", "random"]);

/** Jinja's `has_safe_repr`: the values a folded constant may hold. */
function hasSafeRepr(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "bigint")
    return true;
  if (
    typeof value === "boolean" ||
    value instanceof PyFloat ||
    value instanceof Markup ||
    value instanceof PyRange
  )
    return true;
  if (Array.isArray(value)) return value.every(hasSafeRepr);
  if (value instanceof Map) {
    for (const [k, v] of value) if (!hasSafeRepr(k) || !hasSafeRepr(v)) return false;
    return true;
  }
  return false;
}

/**
 * Jinja's compile-time evaluation (`node.as_const()`): the optimizer replaces every expression it can evaluate
 * with its value (`Const.from_untrusted`, values with a safe repr only), and `{{ }}` output evaluates constant
 * children to text at compile time. It is invisible except in two ways this reproduces: a constant left side of
 * `and`/`or` drops the right side unseen (`false and x|nofilter` raises nothing), and a constant slice goes
 * through the sandbox's lenient `getitem` (`1[1:3]` is undefined, where `x[1:3]` raises for an int `x`).
 */
export class ConstantFolder {
  private readonly builtins: Builtins;
  private readonly memo = new Map<Expr, unknown>();

  constructor(builtins: Builtins) {
    this.builtins = builtins;
  }

  /** `node.as_const()`: the value, or {@link IMPOSSIBLE} (errors included). */
  raw(node: Expr): unknown {
    const known = this.memo.get(node);
    if (known !== undefined || this.memo.has(node)) return known;
    let value: unknown;
    try {
      value = this.evaluate(node);
    } catch {
      value = IMPOSSIBLE;
    }
    this.memo.set(node, value);
    return value;
  }

  /** What the optimizer replaces the node with: its value when that has a safe repr, else {@link IMPOSSIBLE}. */
  folded(node: Expr): unknown {
    const value = this.raw(node);
    return value !== IMPOSSIBLE && hasSafeRepr(value) ? value : IMPOSSIBLE;
  }

  private all(nodes: Expr[]): unknown[] | typeof IMPOSSIBLE {
    const out: unknown[] = [];
    for (const node of nodes) {
      const value = this.raw(node);
      if (value === IMPOSSIBLE) return IMPOSSIBLE;
      out.push(value);
    }
    return out;
  }

  private callArgs(args: CallArgs): [unknown[], Map<string, unknown> | null] | typeof IMPOSSIBLE {
    if (args.dynArgs !== null || args.dynKwargs !== null) return IMPOSSIBLE;
    const positional = this.all(args.args);
    if (positional === IMPOSSIBLE) return IMPOSSIBLE;
    if (args.kwargs.length === 0) return [positional, null];
    const named = new Map<string, unknown>();
    for (const { name, value } of args.kwargs) {
      const v = this.raw(value);
      if (v === IMPOSSIBLE) return IMPOSSIBLE;
      named.set(name, v);
    }
    return [positional, named];
  }

  private evaluate(node: Expr): unknown {
    const raw = (n: Expr) => this.raw(n);
    switch (node.kind) {
      case "const":
        return node.value;
      case "list":
        return this.all(node.items);
      case "tuple": {
        const items = this.all(node.items);
        return items === IMPOSSIBLE ? items : tuple(items);
      }
      case "dict": {
        const out = new Map<unknown, unknown>();
        for (const [k, v] of node.pairs) {
          const key = raw(k);
          const value = raw(v);
          if (key === IMPOSSIBLE || value === IMPOSSIBLE) return IMPOSSIBLE;
          dictSet(out, key, value);
        }
        return out;
      }
      case "binop": {
        const left = raw(node.left);
        const right = raw(node.right);
        if (left === IMPOSSIBLE || right === IMPOSSIBLE) return IMPOSSIBLE;
        return (BINARY_OPERATORS[node.op] as (a: unknown, b: unknown) => unknown)(left, right);
      }
      case "unary": {
        const value = raw(node.node);
        if (value === IMPOSSIBLE) return value;
        return node.op === "-" ? neg(value) : pos(value);
      }
      case "not": {
        const value = raw(node.node);
        return value === IMPOSSIBLE ? value : !truthy(value);
      }
      case "and":
      case "or": {
        const left = raw(node.left);
        if (left === IMPOSSIBLE) return left;
        if (truthy(left) === (node.kind === "or")) return left;
        return raw(node.right);
      }
      case "concat": {
        const parts = this.all(node.nodes);
        return parts === IMPOSSIBLE ? parts : parts.map(pyStr).join("");
      }
      case "compare": {
        let left = raw(node.first);
        if (left === IMPOSSIBLE) return left;
        for (const { op, node: next } of node.ops) {
          const right = raw(next);
          if (right === IMPOSSIBLE) return right;
          if (!compareOp(op, left, right)) return false;
          left = right;
        }
        return true;
      }
      case "cond": {
        const test = raw(node.test);
        if (test === IMPOSSIBLE) return test;
        if (truthy(test)) return raw(node.value);
        return node.otherwise === null ? IMPOSSIBLE : raw(node.otherwise);
      }
      case "getattr": {
        const obj = raw(node.node);
        return obj === IMPOSSIBLE ? obj : getAttribute(obj, node.attr);
      }
      case "getitem": {
        const obj = raw(node.node);
        const key = raw(node.arg);
        if (obj === IMPOSSIBLE || key === IMPOSSIBLE) return IMPOSSIBLE;
        return getItem(obj, key);
      }
      case "slice": {
        const parts = [node.start, node.stop, node.step].map((p) => (p === null ? null : raw(p)));
        if (parts.includes(IMPOSSIBLE)) return IMPOSSIBLE;
        return new PySlice(parts[0], parts[1], parts[2]);
      }
      case "filter":
      case "test": {
        if (node.node === null) return IMPOSSIBLE;
        const fn =
          node.kind === "filter" ? this.builtins.filters.get(node.name) : this.builtins.tests.get(node.name);
        if (fn === undefined || (node.kind === "filter" && CONTEXT_FILTERS.has(node.name))) return IMPOSSIBLE;
        const value = raw(node.node);
        const args = this.callArgs(node.args);
        if (value === IMPOSSIBLE || args === IMPOSSIBLE) return IMPOSSIBLE;
        return fn(value, args[0], args[1], this.builtins);
      }
      default:
        return IMPOSSIBLE;
    }
  }
}
