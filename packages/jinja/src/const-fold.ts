import { getAttribute, getItem, PySlice, sliceItem } from "./access.js";
import type { CallArgs, Expr } from "./ast.js";
import type { Builtins } from "./filter-registry.js";
import { Markup } from "./markup.js";
import { add, contains, eq, floordiv, mod, mul, neg, order, pos, pow, sub, truediv } from "./operators.js";
import { PyRange } from "./py-range.js";
import { pyStr } from "./python-repr.js";
import { PyFloat, truthy, tuple } from "./values.js";

/** What {@link constantValue} answers for an expression Jinja's optimizer cannot fold. */
export const IMPOSSIBLE: unique symbol = Symbol("impossible");

/** Filters that take the render context (`@pass_context`): Jinja never folds them. */
const CONTEXT_FILTERS = new Set(["map", "select", "reject", "selectattr", "rejectattr", "random"]);

const BINARY: Record<string, (a: unknown, b: unknown) => unknown> = {
  "+": add,
  "-": sub,
  "*": mul,
  "/": truediv,
  "//": floordiv,
  "%": mod,
  "**": pow,
};

function compare(op: string, a: unknown, b: unknown): boolean {
  switch (op) {
    case "==":
      return eq(a, b);
    case "!=":
      return !eq(a, b);
    case "<":
      return order(a, b, op) < 0;
    case "<=":
      return order(a, b, op) <= 0;
    case ">":
      return order(a, b, op) > 0;
    case ">=":
      return order(a, b, op) >= 0;
    case "in":
      return contains(b, a);
    default:
      return !contains(b, a);
  }
}

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
 * The value Jinja's optimizer folds an expression to at compile time (`node.as_const()` then
 * `Const.from_untrusted`), or {@link IMPOSSIBLE}. Folding is invisible except where it drops a branch: `false and
 * x|nofilter` folds to `False`, so the unknown filter never reaches the code generator and raises nothing.
 */
export function constantValue(node: Expr, builtins: Builtins): unknown {
  try {
    const value = evaluate(node, builtins);
    return value !== IMPOSSIBLE && hasSafeRepr(value) ? value : IMPOSSIBLE;
  } catch {
    return IMPOSSIBLE;
  }
}

function all(nodes: Expr[], builtins: Builtins): unknown[] | typeof IMPOSSIBLE {
  const out: unknown[] = [];
  for (const node of nodes) {
    const value = evaluate(node, builtins);
    if (value === IMPOSSIBLE) return IMPOSSIBLE;
    out.push(value);
  }
  return out;
}

function callArgs(
  args: CallArgs,
  builtins: Builtins,
): [unknown[], Map<string, unknown> | null] | typeof IMPOSSIBLE {
  if (args.dynArgs !== null || args.dynKwargs !== null) return IMPOSSIBLE;
  const positional = all(args.args, builtins);
  if (positional === IMPOSSIBLE) return IMPOSSIBLE;
  if (args.kwargs.length === 0) return [positional, null];
  const named = new Map<string, unknown>();
  for (const { name, value } of args.kwargs) {
    const v = evaluate(value, builtins);
    if (v === IMPOSSIBLE) return IMPOSSIBLE;
    named.set(name, v);
  }
  return [positional, named];
}

function evaluate(node: Expr, builtins: Builtins): unknown {
  switch (node.kind) {
    case "const":
      return node.value;
    case "list":
      return all(node.items, builtins);
    case "tuple": {
      const items = all(node.items, builtins);
      return items === IMPOSSIBLE ? items : tuple(items);
    }
    case "dict": {
      const out = new Map<unknown, unknown>();
      for (const [k, v] of node.pairs) {
        const key = evaluate(k, builtins);
        const value = evaluate(v, builtins);
        if (key === IMPOSSIBLE || value === IMPOSSIBLE) return IMPOSSIBLE;
        out.set(key, value);
      }
      return out;
    }
    case "binop": {
      const left = evaluate(node.left, builtins);
      const right = evaluate(node.right, builtins);
      if (left === IMPOSSIBLE || right === IMPOSSIBLE) return IMPOSSIBLE;
      return (BINARY[node.op] as (a: unknown, b: unknown) => unknown)(left, right);
    }
    case "unary": {
      const value = evaluate(node.node, builtins);
      if (value === IMPOSSIBLE) return value;
      return node.op === "-" ? neg(value) : pos(value);
    }
    case "not": {
      const value = evaluate(node.node, builtins);
      return value === IMPOSSIBLE ? value : !truthy(value);
    }
    case "and":
    case "or": {
      const left = evaluate(node.left, builtins);
      if (left === IMPOSSIBLE) return left;
      if (truthy(left) === (node.kind === "or")) return left;
      return evaluate(node.right, builtins);
    }
    case "concat": {
      const parts = all(node.nodes, builtins);
      return parts === IMPOSSIBLE ? parts : parts.map(pyStr).join("");
    }
    case "compare": {
      let left = evaluate(node.first, builtins);
      if (left === IMPOSSIBLE) return left;
      for (const { op, node: next } of node.ops) {
        const right = evaluate(next, builtins);
        if (right === IMPOSSIBLE) return right;
        if (!compare(op, left, right)) return false;
        left = right;
      }
      return true;
    }
    case "cond": {
      const test = evaluate(node.test, builtins);
      if (test === IMPOSSIBLE) return test;
      if (truthy(test)) return evaluate(node.value, builtins);
      return node.otherwise === null ? IMPOSSIBLE : evaluate(node.otherwise, builtins);
    }
    case "getattr": {
      const obj = evaluate(node.node, builtins);
      return obj === IMPOSSIBLE ? obj : getAttribute(obj, node.attr);
    }
    case "getitem": {
      const obj = evaluate(node.node, builtins);
      const key = evaluate(node.arg, builtins);
      if (obj === IMPOSSIBLE || key === IMPOSSIBLE) return IMPOSSIBLE;
      return key instanceof PySlice ? sliceItem(obj, key) : getItem(obj, key);
    }
    case "slice": {
      const parts = [node.start, node.stop, node.step].map((p) =>
        p === null ? null : evaluate(p, builtins),
      );
      if (parts.includes(IMPOSSIBLE)) return IMPOSSIBLE;
      return new PySlice(parts[0], parts[1], parts[2]);
    }
    case "filter":
    case "test": {
      if (node.node === null) return IMPOSSIBLE;
      const fn = node.kind === "filter" ? builtins.filters.get(node.name) : builtins.tests.get(node.name);
      if (fn === undefined || (node.kind === "filter" && CONTEXT_FILTERS.has(node.name))) return IMPOSSIBLE;
      const value = evaluate(node.node, builtins);
      const args = callArgs(node.args, builtins);
      if (value === IMPOSSIBLE || args === IMPOSSIBLE) return IMPOSSIBLE;
      return fn(value, args[0], args[1], builtins);
    }
    default:
      return IMPOSSIBLE;
  }
}
