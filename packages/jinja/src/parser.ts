import type { CallArgs, Expr, Stmt, Target } from "./ast.js";
import type { Token } from "./lexer.js";
import { fail } from "./template-error.js";
import { normalizeInt, PyFloat } from "./values.js";

const COMPARE_OPS = new Set(["==", "!=", "<", "<=", ">", ">="]);
const PRIMARY_START = new Set(["name", "string", "integer", "float", "(", "[", "{"]);

/** Parses tokens into statements, following Jinja2's grammar and precedence. */
export function parse(tokens: Token[]): Stmt[] {
  return new Parser(tokens).parseTemplate();
}

class Parser {
  private pos = 0;
  private readonly tokens: Token[];

  constructor(tokens: Token[]) {
    this.tokens = tokens;
  }

  private get current(): Token {
    return this.tokens[this.pos] as Token;
  }

  private peek(offset = 1): Token {
    return (this.tokens[this.pos + offset] ?? this.tokens[this.tokens.length - 1]) as Token;
  }

  private next(): Token {
    const token = this.current;
    if (token.type !== "eof") this.pos++;
    return token;
  }

  private isName(value: string, token = this.current): boolean {
    return token.type === "name" && token.value === value;
  }

  private skipName(value: string): boolean {
    if (this.isName(value)) {
      this.pos++;
      return true;
    }
    return false;
  }

  private skip(type: string): boolean {
    if (this.current.type === type) {
      this.pos++;
      return true;
    }
    return false;
  }

  private describe(token: Token): string {
    if (
      token.type === "name" ||
      token.type === "string" ||
      token.type === "integer" ||
      token.type === "float"
    )
      return token.type === "name" ? token.value : token.type;
    if (token.type === "eof") return "end of template";
    if (token.type === "block_end") return "end of statement block";
    if (token.type === "variable_end") return "end of print statement";
    return token.type;
  }

  private expect(type: string): Token {
    if (this.current.type !== type) {
      fail("TemplateSyntaxError", `expected token '${type}', got '${this.describe(this.current)}'`);
    }
    return this.next();
  }

  private expectName(value?: string): Token {
    if (this.current.type !== "name" || (value !== undefined && this.current.value !== value)) {
      fail(
        "TemplateSyntaxError",
        `expected token '${value ?? "name"}', got '${this.describe(this.current)}'`,
      );
    }
    return this.next();
  }

  parseTemplate(): Stmt[] {
    const body = this.subparse(null);
    if (this.current.type !== "eof") fail("TemplateSyntaxError", "unexpected tokens after the template");
    return body;
  }

  /** Statements until a block tag named in `ends` (left unconsumed after its `{%`), or the end. */
  private subparse(ends: readonly string[] | null): Stmt[] {
    const body: Stmt[] = [];
    let output: (string | Expr)[] = [];
    const flush = () => {
      if (output.length > 0) {
        body.push({ kind: "output", nodes: output });
        output = [];
      }
    };
    for (;;) {
      const token = this.current;
      if (token.type === "data") {
        output.push(token.value);
        this.next();
      } else if (token.type === "variable_begin") {
        this.next();
        output.push(this.parseTuple({ withCondexpr: true }));
        this.expect("variable_end");
      } else if (token.type === "block_begin") {
        flush();
        this.next();
        if (ends !== null && this.current.type === "name" && ends.includes(this.current.value)) return body;
        body.push(this.parseStatement());
      } else if (token.type === "eof") {
        if (ends !== null) {
          fail(
            "TemplateSyntaxError",
            `Unexpected end of template. Jinja was looking for the following tags: ${ends.map((e) => `'${e}'`).join(" or ")}.`,
          );
        }
        flush();
        return body;
      } else {
        fail("TemplateSyntaxError", `unexpected '${token.type}'`);
      }
    }
  }

  private parseStatement(): Stmt {
    const token = this.current;
    if (token.type !== "name") fail("TemplateSyntaxError", "tag name expected");
    let stmt: Stmt;
    switch (token.value) {
      case "for":
        stmt = this.parseFor();
        break;
      case "if":
        stmt = this.parseIf();
        break;
      case "set":
        stmt = this.parseSet();
        break;
      case "macro":
        stmt = this.parseMacro();
        break;
      case "call":
        stmt = this.parseCallBlock();
        break;
      case "filter": {
        this.next();
        const filter = this.parseFilter(null, true);
        this.expect("block_end");
        const body = this.subparse(["endfilter"]);
        this.next();
        stmt = { kind: "filterblock", filter, body };
        break;
      }
      case "with":
        stmt = this.parseWith();
        break;
      case "generation": {
        this.next();
        this.expect("block_end");
        const body = this.subparse(["endgeneration"]);
        this.next();
        stmt = { kind: "scope", body };
        break;
      }
      case "break":
      case "continue":
        this.next();
        stmt = { kind: token.value };
        break;
      default:
        return fail("TemplateSyntaxError", `Encountered unknown tag '${token.value}'.`);
    }
    this.expect("block_end");
    return stmt;
  }

  private parseFor(): Stmt {
    this.next();
    const target = this.parseAssignTarget({ extraEnd: ["in"] });
    this.expectName("in");
    const iter = this.parseTuple({ withCondexpr: false, extraEnd: ["recursive"] });
    const test = this.skipName("if") ? this.parseExpression() : null;
    const recursive = this.skipName("recursive");
    this.expect("block_end");
    const body = this.subparse(["endfor", "else"]);
    let otherwise: Stmt[] = [];
    if (this.next().value === "else") {
      this.expect("block_end");
      otherwise = this.subparse(["endfor"]);
      this.next();
    }
    return { kind: "for", target, iter, body, otherwise, test, recursive };
  }

  private parseIf(): Stmt {
    this.next();
    const test = this.parseTuple({ withCondexpr: false });
    this.expect("block_end");
    const body = this.subparse(["elif", "else", "endif"]);
    const token = this.next();
    let otherwise: Stmt[] = [];
    if (token.value === "elif") {
      // The nested if consumes the chain up to and including endif; give it back its tag name.
      this.pos--;
      otherwise = [this.parseIf()];
      return { kind: "if", test, body, otherwise };
    }
    if (token.value === "else") {
      this.expect("block_end");
      otherwise = this.subparse(["endif"]);
      this.next();
    }
    return { kind: "if", test, body, otherwise };
  }

  private parseSet(): Stmt {
    this.next();
    const target = this.parseAssignTarget({ withNamespace: true });
    if (this.skip("=")) {
      const value = this.parseTuple({ withCondexpr: true });
      return { kind: "set", target, value };
    }
    const filter = this.current.type === "|" ? this.parseFilter(null) : null;
    this.expect("block_end");
    const body = this.subparse(["endset"]);
    this.next();
    return { kind: "setblock", target, body, filter };
  }

  private parseSignature(): { params: string[]; defaults: Expr[] } {
    const params: string[] = [];
    const defaults: Expr[] = [];
    this.expect("(");
    while (this.current.type !== ")") {
      if (params.length > 0) this.expect(",");
      if (this.current.type === ")") break;
      const name = this.expectName().value;
      params.push(name);
      if (this.skip("=")) defaults.push(this.parseExpression());
      else if (defaults.length > 0)
        fail("TemplateSyntaxError", "non-default argument follows default argument");
    }
    this.expect(")");
    return { params, defaults };
  }

  private parseMacro(): Stmt {
    this.next();
    const name = this.expectName().value;
    const { params, defaults } = this.parseSignature();
    this.expect("block_end");
    const body = this.subparse(["endmacro"]);
    this.next();
    if (this.current.type === "name" && this.current.value === name) this.next();
    return { kind: "macro", name, params, defaults, body };
  }

  private parseCallBlock(): Stmt {
    this.next();
    const signature = this.current.type === "(" ? this.parseSignature() : { params: [], defaults: [] };
    const call = this.parseExpression();
    if (call.kind !== "call") fail("TemplateSyntaxError", "expected call");
    this.expect("block_end");
    const body = this.subparse(["endcall"]);
    this.next();
    return { kind: "callblock", call, params: signature.params, defaults: signature.defaults, body };
  }

  private parseWith(): Stmt {
    this.next();
    const targets: Target[] = [];
    const values: Expr[] = [];
    while (this.current.type !== "block_end") {
      if (targets.length > 0) this.expect(",");
      targets.push(this.parseAssignTarget({}));
      this.expect("=");
      values.push(this.parseExpression());
    }
    this.expect("block_end");
    const body = this.subparse(["endwith"]);
    this.next();
    return { kind: "with", targets, values, body };
  }

  private parseAssignTarget(options: { extraEnd?: string[]; withNamespace?: boolean }): Target {
    if (options.withNamespace && this.current.type === "name" && this.peek().type === ".") {
      const name = this.next().value;
      this.next();
      const attr = this.expectName().value;
      return { kind: "nsref", name, attr };
    }
    const items: Target[] = [];
    let isTuple = false;
    for (;;) {
      if (items.length > 0) {
        this.expect(",");
        isTuple = true;
        if (this.isTupleEnd(options.extraEnd) || this.current.type === "=") break;
      }
      if (this.current.type === "(") {
        this.next();
        items.push(this.parseAssignTarget({ extraEnd: [] }));
        this.expect(")");
      } else {
        items.push({ kind: "name", name: this.expectName().value });
      }
      if (this.current.type !== ",") break;
    }
    if (!isTuple) return items[0] as Target;
    return { kind: "tuple", items };
  }

  /** Jinja's parse_tuple: one expression, or a tuple when commas follow. */
  private parseTuple(options: {
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
      if (!options.explicitParens)
        fail("TemplateSyntaxError", `Expected an expression, got '${this.describe(this.current)}'`);
    }
    return { kind: "tuple", items };
  }

  private isTupleEnd(extraEnd?: string[]): boolean {
    const t = this.current.type;
    if (t === "variable_end" || t === "block_end" || t === ")" || t === "eof") return true;
    if (extraEnd && t === "name" && extraEnd.includes(this.current.value)) return true;
    return false;
  }

  private parseExpression(withCondexpr = true): Expr {
    return withCondexpr ? this.parseCondexpr() : this.parseOr();
  }

  private parseCondexpr(): Expr {
    let expr = this.parseOr();
    while (this.skipName("if")) {
      const test = this.parseOr();
      const otherwise = this.skipName("else") ? this.parseCondexpr() : null;
      expr = { kind: "cond", test, value: expr, otherwise };
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
    if (this.skipName("not")) return { kind: "not", node: this.parseNot() };
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
      node = { kind: "unary", op, node: this.parseUnary(false) };
    } else {
      node = this.parsePrimary();
    }
    node = this.parsePostfix(node);
    if (withFilter) node = this.parseFilterExpr(node);
    return node;
  }

  private parsePrimary(): Expr {
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
        return fail("TemplateSyntaxError", `unexpected '${this.describe(token)}'`);
    }
  }

  private parsePostfix(node: Expr): Expr {
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
      return fail("TemplateSyntaxError", "expected name or number");
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

  private parseCallArgs(): CallArgs {
    this.expect("(");
    const result: CallArgs = { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
    let first = true;
    while (this.current.type !== ")") {
      if (!first) {
        this.expect(",");
        if (this.current.type === ")") break;
      }
      first = false;
      if (this.current.type === "*") {
        this.next();
        result.dynArgs = this.parseExpression();
      } else if (this.current.type === "**") {
        this.next();
        result.dynKwargs = this.parseExpression();
      } else if (this.current.type === "name" && this.peek().type === "=") {
        const name = this.next().value;
        this.next();
        result.kwargs.push({ name, value: this.parseExpression() });
      } else {
        if (result.kwargs.length > 0) fail("TemplateSyntaxError", "Invalid argument syntax");
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

  private parseFilter(node: Expr | null, startInline = false): Expr {
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
      if (this.isName("is")) fail("TemplateSyntaxError", "You cannot chain multiple tests with is");
      args.args.push(this.parsePostfix(this.parsePrimary()));
    }
    const test: Expr = { kind: "test", node, name, args };
    return negated ? { kind: "not", node: test } : test;
  }
}
