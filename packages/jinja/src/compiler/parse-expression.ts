import { normalizeInt, PyFloat } from "../runtime/python-values.js";
import { fail } from "../runtime/template-error.js";
import type { CallArgs, Expr } from "./ast.js";
import { TokenStream } from "./token-stream.js";

/**
 * How deep an expression may nest. Jinja's parser is recursive, so CPython's recursion limit bounds it: 490
 * unary operators (`- - - 1`, `not not 1`) and 69 brackets (`((1))`, `[[1]]`), a bracket taking seven times the
 * frames of an operator, as measured against the reference renderer. Deeper, the parse raises RecursionError before
 * JavaScript's own stack runs out.
 */
const EXPRESSION_DEPTH = 490;
const BRACKET_WEIGHT = 7;

const COMPARE_OPS = new Set(["==", "!=", "<", "<=", ">", ">="]);
const PRIMARY_START = new Set(["name", "string", "integer", "float", "(", "[", "{"]);

/** Jinja2's expression grammar and precedence, over a token stream; statements build on it (parser.ts). */
export class ExpressionParser extends TokenStream {
  /** How deep the expression being read nests, in Python parser frames (see {@link EXPRESSION_DEPTH}). */
  private depth = 0;

  /** Reads a nested part of an expression, raising Python's RecursionError where Jinja's parser would. */
  private nested<T>(weight: number, read: () => T): T {
    this.depth += weight;
    if (this.depth > EXPRESSION_DEPTH) fail("RecursionError", "maximum recursion depth exceeded");
    try {
      return read();
    } finally {
      this.depth -= weight;
    }
  }

  /** Jinja's parse_tuple: one expression, or a tuple when commas follow. */
  protected parseTuple(options: {
    withCondexpr?: boolean;
    extraEnd?: string[];
    explicitParens?: boolean;
    simplified?: boolean;
  }): Expr {
    const parseOne = () =>
      options.simplified ? this.parsePrimary() : this.parseExpression(options.withCondexpr ?? true);
    const items: Expr[] = [];
    let isTuple = false;
    for (;;) {
      if (items.length > 0) this.expect(",");
      if (this.isTupleEnd(options.extraEnd)) break;
      items.push(parseOne());
      if (this.current.type === ",") isTuple = true;
      else break;
    }
    if (!isTuple) {
      if (items.length > 0) return items[0] as Expr;
      if (!options.explicitParens) this.fail(`Expected an expression, got '${this.describe(this.current)}'`);
    }
    return { kind: "tuple", items };
  }

  protected isTupleEnd(extraEnd?: string[]): boolean {
    const t = this.current.type;
    if (t === "variable_end" || t === "block_end" || t === ")" || t === "eof") return true;
    if (extraEnd && t === "name" && extraEnd.includes(this.current.value)) return true;
    return false;
  }

  protected parseExpression(withCondexpr = true): Expr {
    return withCondexpr ? this.parseCondexpr() : this.parseOr();
  }

  private parseCondexpr(): Expr {
    const line = this.current.line;
    let expr = this.parseOr();
    while (this.skipName("if")) {
      const test = this.parseOr();
      const otherwise = this.skipName("else") ? this.parseCondexpr() : null;
      expr = { kind: "cond", test, value: expr, otherwise, line };
    }
    return expr;
  }

  private parseOr(): Expr {
    let left = this.parseAnd();
    while (this.skipName("or")) left = { kind: "or", left, right: this.parseAnd() };
    return left;
  }

  private parseAnd(): Expr {
    let left = this.parseNot();
    while (this.skipName("and")) left = { kind: "and", left, right: this.parseNot() };
    return left;
  }

  private parseNot(): Expr {
    if (this.skipName("not")) return { kind: "not", node: this.nested(1, () => this.parseNot()) };
    return this.parseCompare();
  }

  private parseCompare(): Expr {
    const first = this.parseMath1();
    const ops: { op: string; node: Expr }[] = [];
    for (;;) {
      const t = this.current;
      if (COMPARE_OPS.has(t.type)) {
        this.next();
        ops.push({ op: t.type, node: this.parseMath1() });
      } else if (this.isName("in")) {
        this.next();
        ops.push({ op: "in", node: this.parseMath1() });
      } else if (this.isName("not") && this.isName("in", this.peek())) {
        this.pos += 2;
        ops.push({ op: "notin", node: this.parseMath1() });
      } else break;
    }
    return ops.length === 0 ? first : { kind: "compare", first, ops };
  }

  private parseMath1(): Expr {
    let left = this.parseConcat();
    while (this.current.type === "+" || this.current.type === "-") {
      const op = this.next().type;
      left = { kind: "binop", op, left, right: this.parseConcat() };
    }
    return left;
  }

  private parseConcat(): Expr {
    const nodes = [this.parseMath2()];
    while (this.skip("~")) nodes.push(this.parseMath2());
    return nodes.length === 1 ? (nodes[0] as Expr) : { kind: "concat", nodes };
  }

  private parseMath2(): Expr {
    let left = this.parsePow();
    while (["*", "/", "//", "%"].includes(this.current.type)) {
      const op = this.next().type;
      left = { kind: "binop", op, left, right: this.parsePow() };
    }
    return left;
  }

  private parsePow(): Expr {
    let left = this.parseUnary();
    while (this.skip("**")) left = { kind: "binop", op: "**", left, right: this.parseUnary() };
    return left;
  }

  private parseUnary(withFilter = true): Expr {
    let node: Expr;
    if (this.current.type === "-" || this.current.type === "+") {
      const op = this.next().type as "-" | "+";
      node = { kind: "unary", op, node: this.nested(1, () => this.parseUnary(false)) };
    } else {
      node = this.parsePrimary();
    }
    node = this.parsePostfix(node);
    if (withFilter) node = this.parseFilterExpr(node);
    return node;
  }

  protected parsePrimary(): Expr {
    const type = this.current.type;
    if (type === "(" || type === "[" || type === "{")
      return this.nested(BRACKET_WEIGHT, () => this.parseAtom());
    return this.parseAtom();
  }

  private parseAtom(): Expr {
    const token = this.current;
    switch (token.type) {
      case "name": {
        this.next();
        switch (token.value) {
          case "true":
          case "True":
            return { kind: "const", value: true };
          case "false":
          case "False":
            return { kind: "const", value: false };
          case "none":
          case "None":
            return { kind: "const", value: null };
          default:
            return { kind: "name", name: token.value };
        }
      }
      case "string": {
        let value = this.next().value;
        while (this.current.type === "string") value += this.next().value;
        return { kind: "const", value };
      }
      case "integer": {
        this.next();
        return { kind: "const", value: normalizeInt(BigInt(token.value)) };
      }
      case "float": {
        this.next();
        return { kind: "const", value: new PyFloat(Number(token.value)) };
      }
      case "(": {
        this.next();
        const node = this.parseTuple({ explicitParens: true });
        this.expect(")");
        return node;
      }
      case "[": {
        this.next();
        const items: Expr[] = [];
        while (this.current.type !== "]") {
          if (items.length > 0) this.expect(",");
          if (this.current.type === "]") break;
          items.push(this.parseExpression());
        }
        this.expect("]");
        return { kind: "list", items };
      }
      case "{": {
        this.next();
        const pairs: [Expr, Expr][] = [];
        while (this.current.type !== "}") {
          if (pairs.length > 0) this.expect(",");
          if (this.current.type === "}") break;
          const key = this.parseExpression();
          this.expect(":");
          pairs.push([key, this.parseExpression()]);
        }
        this.expect("}");
        return { kind: "dict", pairs };
      }
      default:
        return this.fail(`unexpected '${this.describe(token)}'`);
    }
  }

  protected parsePostfix(node: Expr): Expr {
    for (;;) {
      const t = this.current.type;
      if (t === "." || t === "[") node = this.parseSubscript(node);
      else if (t === "(") node = { kind: "call", node, args: this.parseCallArgs() };
      else return node;
    }
  }

  private parseFilterExpr(node: Expr): Expr {
    for (;;) {
      const t = this.current.type;
      if (t === "|") node = this.parseFilter(node);
      else if (this.isName("is")) node = this.parseTest(node);
      else if (t === "(") node = { kind: "call", node, args: this.parseCallArgs() };
      else return node;
    }
  }

  private parseSubscript(node: Expr): Expr {
    const token = this.next();
    if (token.type === ".") {
      const attr = this.next();
      if (attr.type === "name") return { kind: "getattr", node, attr: attr.value };
      if (attr.type === "integer")
        return { kind: "getitem", node, arg: { kind: "const", value: Number(attr.value) } };
      return this.fail("expected name or number");
    }
    const args: Expr[] = [];
    while (this.current.type !== "]") {
      if (args.length > 0) this.expect(",");
      args.push(this.parseSubscribed());
    }
    this.expect("]");
    const arg: Expr = args.length === 1 ? (args[0] as Expr) : { kind: "tuple", items: args };
    return { kind: "getitem", node, arg };
  }

  private parseSubscribed(): Expr {
    const type = (): string => this.current.type;
    let start: Expr | null = null;
    if (type() === ":") {
      this.next();
    } else {
      const node = this.parseExpression();
      if (type() !== ":") return node;
      this.next();
      start = node;
    }
    let stop: Expr | null = null;
    let step: Expr | null = null;
    if (type() !== "]" && type() !== "," && type() !== ":") stop = this.parseExpression();
    if (this.skip(":")) {
      if (type() !== "]" && type() !== ",") step = this.parseExpression();
    }
    return { kind: "slice", start, stop, step };
  }

  protected parseCallArgs(): CallArgs {
    const line = this.expect("(").line;
    const result: CallArgs = { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
    // Jinja's order rules: positional, keyword, `*args`, `**kwargs`, each at most once where it applies.
    const ensure = (ok: boolean) => {
      if (!ok) this.fail("invalid syntax for function call expression", line);
    };
    let first = true;
    while (this.current.type !== ")") {
      if (!first) {
        this.expect(",");
        if (this.current.type === ")") break;
      }
      first = false;
      if (this.current.type === "*") {
        ensure(result.dynArgs === null && result.dynKwargs === null);
        this.next();
        result.dynArgs = this.parseExpression();
      } else if (this.current.type === "**") {
        ensure(result.dynKwargs === null);
        this.next();
        result.dynKwargs = this.parseExpression();
      } else if (this.current.type === "name" && this.peek().type === "=") {
        ensure(result.dynKwargs === null);
        const name = this.next().value;
        this.next();
        result.kwargs.push({ name, value: this.parseExpression() });
      } else {
        ensure(result.dynArgs === null && result.dynKwargs === null && result.kwargs.length === 0);
        result.args.push(this.parseExpression());
      }
    }
    this.expect(")");
    return result;
  }

  private parseDottedName(): string {
    let name = this.expectName().value;
    while (this.current.type === "." && this.peek().type === "name") {
      this.next();
      name += `.${this.next().value}`;
    }
    return name;
  }

  protected parseFilter(node: Expr | null, startInline = false): Expr {
    let current = node;
    let inline = startInline;
    while (this.current.type === "|" || inline) {
      if (!inline) this.next();
      inline = false;
      const name = this.parseDottedName();
      const args: CallArgs =
        this.current.type === "("
          ? this.parseCallArgs()
          : { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
      current = { kind: "filter", node: current, name, args };
    }
    return current as Expr;
  }

  private parseTest(node: Expr): Expr {
    this.next();
    const negated = this.skipName("not");
    const name = this.parseDottedName();
    let args: CallArgs = { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
    if (this.current.type === "(") {
      args = this.parseCallArgs();
    } else if (
      PRIMARY_START.has(this.current.type) &&
      !this.isName("else") &&
      !this.isName("or") &&
      !this.isName("and")
    ) {
      if (this.isName("is")) this.fail("You cannot chain multiple tests with is");
      args.args.push(this.parsePostfix(this.parsePrimary()));
    }
    const test: Expr = { kind: "test", node, name, args };
    return negated ? { kind: "not", node: test } : test;
  }
}
