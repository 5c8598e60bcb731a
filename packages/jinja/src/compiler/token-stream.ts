import { fail } from "../runtime/template-error.js";
import type { Token } from "./lexer.js";

/** A cursor over Jinja tokens with Jinja's `TokenStream` checks and its error texts (and line numbers). */
export class TokenStream {
  protected pos = 0;
  protected readonly tokens: Token[];

  constructor(tokens: Token[]) {
    this.tokens = tokens;
  }

  protected get current(): Token {
    return this.tokens[this.pos] as Token;
  }

  protected peek(offset = 1): Token {
    return (this.tokens[this.pos + offset] ?? this.tokens[this.tokens.length - 1]) as Token;
  }

  protected next(): Token {
    const token = this.current;
    if (token.type !== "eof") this.pos++;
    return token;
  }

  /** Raises a TemplateSyntaxError at a line (the current token's by default), as Jinja's `parser.fail`. */
  protected fail(message: string, line = this.current.line, type = "TemplateSyntaxError"): never {
    return fail(type, message, line);
  }

  protected isName(value: string, token = this.current): boolean {
    return token.type === "name" && token.value === value;
  }

  protected skipName(value: string): boolean {
    if (this.isName(value)) {
      this.pos++;
      return true;
    }
    return false;
  }

  protected skip(type: string): boolean {
    if (this.current.type === type) {
      this.pos++;
      return true;
    }
    return false;
  }

  protected describe(token: Token): string {
    if (token.type === "name") return token.value;
    if (token.type === "eof") return "end of template";
    if (token.type === "block_end") return "end of statement block";
    if (token.type === "variable_end") return "end of print statement";
    if (token.type === "block_begin") return "begin of statement block";
    if (token.type === "variable_begin") return "begin of print statement";
    return token.type;
  }

  protected expect(type: string): Token {
    if (this.current.type !== type) {
      if (this.current.type === "eof")
        this.fail(`unexpected end of template, expected '${this.describeType(type)}'.`);
      this.fail(`expected token '${this.describeType(type)}', got '${this.describe(this.current)}'`);
    }
    return this.next();
  }

  protected describeType(type: string): string {
    return this.describe({ type, value: type, line: 0 });
  }

  protected expectName(value?: string): Token {
    if (this.current.type !== "name" || (value !== undefined && this.current.value !== value)) {
      const wanted = value ?? "name";
      if (this.current.type === "eof") this.fail(`unexpected end of template, expected '${wanted}'.`);
      this.fail(`expected token '${wanted}', got '${this.describe(this.current)}'`);
    }
    return this.next();
  }
}
