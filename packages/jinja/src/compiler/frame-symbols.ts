import type { CallArgs, Expr, Stmt, Target } from "./ast.js";

/**
 * Jinja2's symbol tracking (`idtracking.py`), for the one case a scope chain does not give by itself: a name a
 * frame assigns before reading it is that frame's own local from the frame's start, undefined until the
 * assignment runs, even where the context has a variable of that name. So
 * `{% for m in messages %}{{ x }}{% endfor %}{% set x = 1 %}` prints nothing for a given `x`, and a `set` later in
 * a loop body hides the outer `x` from the whole iteration, nested loops included. A name first read, assigned
 * only in a branch of an `if` (Jinja resolves it then), or already known to an enclosing frame is not such a name.
 */
export class FrameSymbols {
  /** Every name this frame reads, assigns or binds as a parameter (Jinja's `refs`). */
  readonly refs = new Set<string>();
  private readonly undefinedNames = new Set<string>();
  private readonly outer: readonly ReadonlySet<string>[];
  private branchDepth = 0;

  /** `outer`: the `refs` of the enclosing frames, innermost last. */
  constructor(outer: readonly ReadonlySet<string>[], params: readonly string[] = []) {
    this.outer = outer;
    for (const name of params) this.refs.add(name);
  }

  /**
   * The names the frame starts with undefined, in first-assignment order.
   *
   * @example
   * const frame = new FrameSymbols([]);
   * frame.visitStatements([{ kind: "set", target: { kind: "name", name: "x" }, value: { kind: "const", value: 1 } }]);
   * frame.undefinedAtEntry(); // ["x"]
   */
  undefinedAtEntry(): string[] {
    return [...this.undefinedNames];
  }

  private known(name: string): boolean {
    if (this.refs.has(name)) return true;
    for (const refs of this.outer) if (refs.has(name)) return true;
    return false;
  }

  load(name: string): void {
    if (!this.known(name)) this.refs.add(name);
  }

  store(name: string): void {
    if (this.refs.has(name)) return;
    const aliased = this.known(name);
    this.refs.add(name);
    // In a branch, Jinja's `branch_update` turns the name into a lookup (or an alias of the outer one).
    if (!aliased && this.branchDepth === 0) this.undefinedNames.add(name);
  }

  /** A frame's statements, as Jinja's `FrameSymbolVisitor` walks them (nested frames: their header only). */
  visitStatements(body: readonly Stmt[]): void {
    for (const stmt of body) this.visitStatement(stmt);
  }

  private visitStatement(stmt: Stmt): void {
    switch (stmt.kind) {
      case "output":
        for (const node of stmt.nodes) if (typeof node !== "string") this.visitExpr(node);
        return;
      case "for":
        this.visitExpr(stmt.iter);
        return;
      case "if":
        this.visitExpr(stmt.test);
        this.branchDepth++;
        this.visitStatements(stmt.body);
        this.visitStatements(stmt.otherwise);
        this.branchDepth--;
        return;
      case "set":
        this.visitExpr(stmt.value);
        this.visitTarget(stmt.target);
        return;
      case "setblock":
        this.visitTarget(stmt.target);
        return;
      case "macro":
        this.store(stmt.name);
        return;
      case "callblock":
        this.visitExpr(stmt.call);
        return;
      case "filterblock":
        this.visitExpr(stmt.filter);
        return;
      case "with":
        for (const value of stmt.values) this.visitExpr(value);
        return;
      case "load":
        this.visitExpr(stmt.template);
        return;
      default:
        // scope, block, autoescape (a scope in Jinja), break, continue: nothing in this frame.
        return;
    }
  }

  visitTarget(target: Target): void {
    if (target.kind === "name") this.store(target.name);
    else if (target.kind === "nsref") this.load(target.name);
    else for (const item of target.items) this.visitTarget(item);
  }

  visitExpr(expr: Expr | null): void {
    if (expr === null) return;
    switch (expr.kind) {
      case "const":
        return;
      case "name":
        this.load(expr.name);
        return;
      case "list":
      case "tuple":
        for (const item of expr.items) this.visitExpr(item);
        return;
      case "dict":
        for (const [key, value] of expr.pairs) {
          this.visitExpr(key);
          this.visitExpr(value);
        }
        return;
      case "getattr":
      case "unary":
      case "not":
        this.visitExpr(expr.node);
        return;
      case "getitem":
        this.visitExpr(expr.node);
        this.visitExpr(expr.arg);
        return;
      case "slice":
        this.visitExpr(expr.start);
        this.visitExpr(expr.stop);
        this.visitExpr(expr.step);
        return;
      case "call":
        this.visitExpr(expr.node);
        this.visitArgs(expr.args);
        return;
      case "filter":
      case "test":
        this.visitExpr(expr.node);
        this.visitArgs(expr.args);
        return;
      case "binop":
      case "and":
      case "or":
        this.visitExpr(expr.left);
        this.visitExpr(expr.right);
        return;
      case "concat":
        for (const node of expr.nodes) this.visitExpr(node);
        return;
      case "compare":
        this.visitExpr(expr.first);
        for (const { node } of expr.ops) this.visitExpr(node);
        return;
      case "cond":
        this.visitExpr(expr.test);
        this.visitExpr(expr.value);
        this.visitExpr(expr.otherwise);
        return;
      default:
        expr satisfies never;
    }
  }

  private visitArgs(args: CallArgs): void {
    for (const arg of args.args) this.visitExpr(arg);
    for (const { value } of args.kwargs) this.visitExpr(value);
    this.visitExpr(args.dynArgs);
    this.visitExpr(args.dynKwargs);
  }
}
