import { TemplateError } from "../runtime/template-error.js";
import type { Expr, Stmt, Target } from "./ast.js";
import type { Token } from "./lexer.js";
import { ExpressionParser } from "./parse-expression.js";

/** Parses tokens into statements, following Jinja2's grammar and its error messages. */
export function parse(tokens: Token[]): Stmt[] {
  return new Parser(tokens).parseTemplate();
}

const STATEMENTS = new Set([
  "for",
  "if",
  "block",
  "extends",
  "print",
  "macro",
  "include",
  "from",
  "import",
  "set",
  "with",
  "autoescape",
  "call",
  "filter",
  "generation",
  "break",
  "continue",
]);

/** How deep blocks may nest (`{% if %}` in `{% if %}` …), as CPython's recursion limit lets Jinja's parser. */
const STATEMENT_DEPTH = 100;

class Parser extends ExpressionParser {
  /** The tags being parsed, innermost last (Jinja's `_tag_stack`). */
  private readonly tagStack: string[] = [];
  /** The end tags each open body waits for (Jinja's `_end_token_stack`). */
  private readonly endStack: string[][] = [];

  parseTemplate(): Stmt[] {
    return this.subparse(null);
  }

  /** Jinja's `_fail_ut_eof`: an unknown tag or the end of the template while bodies are open. */
  private failUnknown(name: string | null, stack: string[][], line: number): never {
    const expected = new Set(stack.flat());
    const looking =
      stack.length > 0 ? (stack[stack.length - 1] as string[]).map((t) => `'${t}'`).join(" or ") : "";
    const message = [name === null ? "Unexpected end of template." : `Encountered unknown tag '${name}'.`];
    if (looking !== "") {
      if (name !== null && expected.has(name))
        message.push(
          `You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for ${looking}.`,
        );
      else message.push(`Jinja was looking for the following tags: ${looking}.`);
    }
    if (this.tagStack.length > 0)
      message.push(
        `The innermost block that needs to be closed is '${this.tagStack[this.tagStack.length - 1]}'.`,
      );
    return this.fail(message.join(" "), line);
  }

  /** Statements until a block tag named in `ends` (left unconsumed after its `{%`), or the end. */
  private subparse(ends: string[] | null): Stmt[] {
    const body: Stmt[] = [];
    let output: (string | Expr)[] = [];
    const flush = () => {
      if (output.length > 0) {
        body.push({ kind: "output", nodes: output });
        output = [];
      }
    };
    if (ends !== null) this.endStack.push(ends);
    // Jinja's parser recurses once per nested block: CPython's recursion limit stops it near 100 levels.
    if (this.endStack.length > STATEMENT_DEPTH)
      throw new TemplateError("RecursionError", "maximum recursion depth exceeded");
    try {
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
          this.expect("block_end");
        } else {
          flush();
          return body;
        }
      }
    } finally {
      if (ends !== null) this.endStack.pop();
    }
  }

  /** Jinja's `parse_statements`: a body up to one of `ends`; with `drop`, the end tag is consumed. */
  private parseBody(ends: string[], drop = false): Stmt[] {
    this.skip(":");
    this.expect("block_end");
    const body = this.subparse(ends);
    if (this.current.type === "eof") this.failUnknown(null, [...this.endStack, ends], this.current.line);
    if (drop) this.next();
    return body;
  }

  private parseStatement(): Stmt {
    const token = this.current;
    if (token.type !== "name") this.fail("tag name expected");
    if (!STATEMENTS.has(token.value)) return this.failUnknown(token.value, this.endStack, token.line);
    this.tagStack.push(token.value);
    try {
      return this.parseTag(token.value);
    } finally {
      this.tagStack.pop();
    }
  }

  private parseTag(name: string): Stmt {
    const line = this.next().line;
    switch (name) {
      case "for":
        return this.parseFor();
      case "if":
        return this.parseIf();
      case "set":
        return this.parseSet();
      case "macro": {
        const macroName = this.expectName().value;
        const { params, defaults } = this.parseSignature();
        const body = this.parseBody(["endmacro"], true);
        return { kind: "macro", name: macroName, params, defaults, body };
      }
      case "call": {
        const signature = this.current.type === "(" ? this.parseSignature() : { params: [], defaults: [] };
        const call = this.parseExpression();
        if (call.kind !== "call") this.fail("expected call", line);
        const body = this.parseBody(["endcall"], true);
        return { kind: "callblock", call, params: signature.params, defaults: signature.defaults, body };
      }
      case "filter": {
        const filter = this.parseFilter(null, true);
        return { kind: "filterblock", filter, body: this.parseBody(["endfilter"], true) };
      }
      case "with":
        return this.parseWith();
      case "generation":
        return { kind: "scope", body: this.parseBody(["endgeneration"], true) };
      case "autoescape": {
        const value = this.parseExpression();
        return { kind: "autoescape", value, body: this.parseBody(["endautoescape"], true) };
      }
      case "print": {
        const nodes: Expr[] = [];
        while (this.current.type !== "block_end") {
          if (nodes.length > 0) this.expect(",");
          nodes.push(this.parseExpression());
        }
        return { kind: "output", nodes };
      }
      case "block":
        return this.parseBlock();
      case "extends":
      case "include":
      case "import":
      case "from":
        return this.parseLoad(name);
      case "break":
      case "continue":
        return { kind: name, line };
      default:
        return this.failUnknown(name, this.endStack, line);
    }
  }

  private parseFor(): Stmt {
    const target = this.parseAssignTarget({});
    this.expectName("in");
    const iter = this.parseTuple({ withCondexpr: false, extraEnd: ["recursive"] });
    const test = this.skipName("if") ? this.parseExpression() : null;
    const recursive = this.skipName("recursive");
    const body = this.parseBody(["endfor", "else"]);
    const otherwise = this.next().value === "else" ? this.parseBody(["endfor"], true) : [];
    return { kind: "for", target, iter, body, otherwise, test, recursive };
  }

  private parseIf(): Stmt {
    const test = this.parseTuple({ withCondexpr: false });
    const body = this.parseBody(["elif", "else", "endif"]);
    const token = this.next();
    if (token.value === "elif") return { kind: "if", test, body, otherwise: [this.parseIf()] };
    const otherwise = token.value === "else" ? this.parseBody(["endif"], true) : [];
    return { kind: "if", test, body, otherwise };
  }

  private parseSet(): Stmt {
    const target = this.parseAssignTarget({ withNamespace: true });
    if (this.skip("=")) return { kind: "set", target, value: this.parseTuple({ withCondexpr: true }) };
    const filter = this.current.type === "|" ? this.parseFilter(null) : null;
    return { kind: "setblock", target, body: this.parseBody(["endset"], true), filter };
  }

  private parseSignature(): { params: string[]; defaults: Expr[] } {
    const params: string[] = [];
    const defaults: Expr[] = [];
    this.expect("(");
    while (this.current.type !== ")") {
      if (params.length > 0) this.expect(",");
      const name = this.expectName().value;
      if (this.skip("=")) defaults.push(this.parseExpression());
      else if (defaults.length > 0) this.fail("non-default argument follows default argument");
      params.push(name);
    }
    this.expect(")");
    return { params, defaults };
  }

  private parseWith(): Stmt {
    const targets: Target[] = [];
    const values: Expr[] = [];
    while (this.current.type !== "block_end") {
      if (targets.length > 0) this.expect(",");
      targets.push(this.parseAssignTarget({}));
      this.expect("=");
      values.push(this.parseExpression());
    }
    return { kind: "with", targets, values, body: this.parseBody(["endwith"], true) };
  }

  private parseBlock(): Stmt {
    const name = this.expectName().value;
    const scoped = this.skipName("scoped");
    const required = this.skipName("required");
    if (this.current.type === "-")
      this.fail(
        "Block names in Jinja have to be valid Python identifiers and may not contain hyphens, use an underscore instead.",
      );
    const body = this.parseBody(["endblock"], true);
    if (
      required &&
      body.some((s) => s.kind !== "output" || s.nodes.some((n) => typeof n !== "string" || !/^\s+$/.test(n)))
    )
      this.fail("Required blocks can only contain comments or whitespace");
    this.skipName(name);
    return { kind: "block", name, scoped, body };
  }

  private parseLoad(tag: "extends" | "include" | "import" | "from"): Stmt {
    const template = this.parseExpression();
    const context = () => {
      if ((this.isName("with") || this.isName("without")) && this.isName("context", this.peek()))
        this.pos += 2;
    };
    if (tag === "include") {
      if (this.isName("ignore") && this.isName("missing", this.peek())) this.pos += 2;
      context();
    } else if (tag === "import") {
      this.expectName("as");
      this.expectName();
      context();
    } else if (tag === "from") {
      this.expectName("import");
      let first = true;
      for (;;) {
        if (!first) this.expect(",");
        first = false;
        if (this.current.type !== "name") this.expectName();
        if ((this.isName("with") || this.isName("without")) && this.isName("context", this.peek())) {
          this.pos += 2;
          break;
        }
        const imported = this.expectName();
        if (imported.value.startsWith("_"))
          this.fail(
            "names starting with an underline can not be imported",
            imported.line,
            "TemplateAssertionError",
          );
        if (this.skipName("as")) this.expectName();
        if ((this.isName("with") || this.isName("without")) && this.isName("context", this.peek())) {
          this.pos += 2;
          break;
        }
        if (this.current.type !== ",") break;
      }
    }
    return { kind: "load", tag, template };
  }

  /**
   * Jinja's parse_assign_target: a tuple of primaries (`parse_tuple(simplified=True)`; the `in` that ends a loop's
   * target is not an end rule there, a Jinja quirk: `{% for a, in x %}` reads `in` as a name), then `can_assign()`,
   * whose error names the node type.
   */
  private parseAssignTarget(options: { withNamespace?: boolean }): Target {
    const items: (Target | string)[] = [];
    let isTuple = false;
    for (;;) {
      if (items.length > 0) this.expect(",");
      if (this.isTupleEnd()) break;
      items.push(this.targetPrimary(options.withNamespace === true));
      if (this.current.type === ",") isTuple = true;
      else break;
    }
    if (!isTuple && items.length === 0)
      this.fail(`Expected an expression, got '${this.describe(this.current)}'`);
    const target = isTuple ? tupleTarget(items) : (items[0] as Target | string);
    if (typeof target === "string") this.fail(`can't assign to '${target}'`);
    return target as Target;
  }

  /** One primary of an assignment target: a Target, or the Jinja node type name of what cannot be assigned. */
  private targetPrimary(withNamespace: boolean): Target | string {
    const token = this.current;
    if (
      withNamespace &&
      token.type === "name" &&
      !CONSTANT_NAMES.has(token.value) &&
      this.peek().type === "."
    ) {
      const name = this.next().value;
      this.next();
      const attr = this.expectName().value;
      return { kind: "nsref", name, attr };
    }
    return assignable(this.parsePrimary());
  }
}

const CONSTANT_NAMES = new Set(["true", "false", "none", "True", "False", "None"]);

const BINOP_NODES: Record<string, string> = {
  "+": "add",
  "-": "sub",
  "*": "mul",
  "/": "div",
  "//": "floordiv",
  "%": "mod",
  "**": "pow",
};

function tupleTarget(items: (Target | string)[]): Target | string {
  return items.some((item) => typeof item === "string")
    ? "tuple"
    : { kind: "tuple", items: items as Target[] };
}

/** An expression as an assignment target, or the lowercased name of its Jinja node class (`can_assign()` false). */
function assignable(expr: Expr): Target | string {
  switch (expr.kind) {
    case "name":
      return { kind: "name", name: expr.name };
    case "tuple":
      return tupleTarget(expr.items.map(assignable));
    case "binop":
      return BINOP_NODES[expr.op] ?? "binexpr";
    case "unary":
      return expr.op === "-" ? "neg" : "pos";
    case "cond":
      return "condexpr";
    default:
      return expr.kind;
  }
}
