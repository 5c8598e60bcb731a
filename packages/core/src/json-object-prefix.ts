import { DEFAULT_MAX_DEPTH } from "./parse-json.js";

// Scanner states. Numbers are small integers so the per-character switch stays a jump table.
const START = 0; // before the top-level value: only whitespace or `{`
const KEY_OR_CLOSE = 1; // after `{`
const KEY = 2; // after `,` in an object
const COLON = 3; // after a key
const VALUE = 4; // after `:`, or after `,` in an array
const VALUE_OR_CLOSE = 5; // after `[`
const AFTER_VALUE = 6; // after a value inside a container
const DONE = 7; // after the top-level object: only whitespace
const STRING = 8;
const ESCAPE = 9;
const UNICODE = 10;
const MINUS = 11; // `-`
const ZERO = 12; // `0` or `-0`
const INTEGER = 13; // digits
const DOT = 14; // `1.`
const FRACTION = 15; // `1.5`
const EXPONENT_MARK = 16; // `1e`
const EXPONENT_SIGN = 17; // `1e+`
const EXPONENT = 18; // `1e5`
const LITERAL = 19; // inside `true`, `false`, `null`
const FAILED = 20;

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isHex(code: number): boolean {
  return isDigit(code) || (code >= 0x61 && code <= 0x66) || (code >= 0x41 && code <= 0x46);
}

/**
 * Reads JSON object text piece by piece and says, after each piece, whether everything read so far can still begin
 * a strict JSON object text (RFC 8259): the check a stream makes before handing argument text on while the rest is
 * still coming (R9). Constant work per character, no backtracking, nothing parsed into values; nesting deeper than
 * `maxDepth` fails, as `parseJson` does.
 *
 * @example
 * const prefix = new JsonObjectPrefix();
 * prefix.push('{"city": "Par'); // true: still a prefix
 * prefix.push('is"}'); // true, and prefix.complete is true
 * prefix.push("}"); // false: nothing may follow a whole object
 */
export class JsonObjectPrefix {
  #state = START;
  /** Open containers, innermost last: 0x7b `{` or 0x5b `[`. */
  readonly #stack: number[] = [];
  /** Whether the string being read is an object key. */
  #key = false;
  #unicodeLeft = 0;
  #literal = "";
  #literalAt = 0;
  readonly #maxDepth: number;

  constructor(options: { maxDepth?: number } = {}) {
    this.#maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  }

  /** Whether the text read so far is still the beginning of (or a whole) JSON object text. */
  get valid(): boolean {
    return this.#state !== FAILED;
  }

  /** Whether the text read so far is a whole JSON object text (trailing whitespace allowed). */
  get complete(): boolean {
    return this.#state === DONE;
  }

  /** Reads more text; returns {@link valid}. Once invalid, it stays invalid. */
  push(text: string): boolean {
    for (let i = 0; i < text.length && this.#state !== FAILED; i++) this.#step(text.charCodeAt(i));
    return this.#state !== FAILED;
  }

  #open(container: number): void {
    if (this.#stack.length >= this.#maxDepth) {
      this.#state = FAILED;
      return;
    }
    this.#stack.push(container);
    this.#state = container === 0x7b ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
  }

  #close(code: number): void {
    const open = this.#stack[this.#stack.length - 1];
    if ((code === 0x7d && open !== 0x7b) || (code === 0x5d && open !== 0x5b)) {
      this.#state = FAILED;
      return;
    }
    this.#stack.pop();
    this.#state = this.#stack.length === 0 ? DONE : AFTER_VALUE;
  }

  /** The first character of a value (in a container). */
  #value(code: number): void {
    switch (code) {
      case 0x7b:
      case 0x5b:
        this.#open(code);
        return;
      case 0x22:
        this.#key = false;
        this.#state = STRING;
        return;
      case 0x2d:
        this.#state = MINUS;
        return;
      case 0x30:
        this.#state = ZERO;
        return;
      case 0x74:
        this.#startLiteral("rue");
        return;
      case 0x66:
        this.#startLiteral("alse");
        return;
      case 0x6e:
        this.#startLiteral("ull");
        return;
      default:
        this.#state = isDigit(code) ? INTEGER : FAILED;
    }
  }

  #startLiteral(rest: string): void {
    this.#literal = rest;
    this.#literalAt = 0;
    this.#state = LITERAL;
  }

  /** A character after a value: `,`, a closing bracket or whitespace. */
  #afterValue(code: number): void {
    if (isWhitespace(code)) {
      this.#state = AFTER_VALUE;
      return;
    }
    if (code === 0x2c) {
      this.#state = this.#stack[this.#stack.length - 1] === 0x7b ? KEY : VALUE;
      return;
    }
    if (code === 0x7d || code === 0x5d) {
      this.#close(code);
      return;
    }
    this.#state = FAILED;
  }

  #step(code: number): void {
    switch (this.#state) {
      case START:
        if (code === 0x7b) this.#open(code);
        else if (!isWhitespace(code)) this.#state = FAILED;
        return;
      case KEY_OR_CLOSE:
        if (code === 0x7d) this.#close(code);
        else if (code === 0x22) {
          this.#key = true;
          this.#state = STRING;
        } else if (!isWhitespace(code)) this.#state = FAILED;
        return;
      case KEY:
        if (code === 0x22) {
          this.#key = true;
          this.#state = STRING;
        } else if (!isWhitespace(code)) this.#state = FAILED;
        return;
      case COLON:
        if (code === 0x3a) this.#state = VALUE;
        else if (!isWhitespace(code)) this.#state = FAILED;
        return;
      case VALUE:
        if (!isWhitespace(code)) this.#value(code);
        return;
      case VALUE_OR_CLOSE:
        if (code === 0x5d) this.#close(code);
        else if (!isWhitespace(code)) this.#value(code);
        return;
      case AFTER_VALUE:
        this.#afterValue(code);
        return;
      case DONE:
        if (!isWhitespace(code)) this.#state = FAILED;
        return;
      case STRING:
        if (code === 0x22) this.#state = this.#key ? COLON : AFTER_VALUE;
        else if (code === 0x5c) this.#state = ESCAPE;
        else if (code < 0x20) this.#state = FAILED;
        return;
      case ESCAPE:
        if (code === 0x75) {
          this.#unicodeLeft = 4;
          this.#state = UNICODE;
        } else
          this.#state =
            code === 0x22 ||
            code === 0x5c ||
            code === 0x2f ||
            code === 0x62 ||
            code === 0x66 ||
            code === 0x6e ||
            code === 0x72 ||
            code === 0x74
              ? STRING
              : FAILED;
        return;
      case UNICODE:
        if (!isHex(code)) this.#state = FAILED;
        else if (--this.#unicodeLeft === 0) this.#state = STRING;
        return;
      case MINUS:
        this.#state = code === 0x30 ? ZERO : isDigit(code) ? INTEGER : FAILED;
        return;
      case ZERO:
        if (code === 0x2e) this.#state = DOT;
        else if (code === 0x65 || code === 0x45) this.#state = EXPONENT_MARK;
        else this.#afterValue(code);
        return;
      case INTEGER:
        if (isDigit(code)) return;
        if (code === 0x2e) this.#state = DOT;
        else if (code === 0x65 || code === 0x45) this.#state = EXPONENT_MARK;
        else this.#afterValue(code);
        return;
      case DOT:
        this.#state = isDigit(code) ? FRACTION : FAILED;
        return;
      case FRACTION:
        if (isDigit(code)) return;
        if (code === 0x65 || code === 0x45) this.#state = EXPONENT_MARK;
        else this.#afterValue(code);
        return;
      case EXPONENT_MARK:
        this.#state = code === 0x2b || code === 0x2d ? EXPONENT_SIGN : isDigit(code) ? EXPONENT : FAILED;
        return;
      case EXPONENT_SIGN:
        this.#state = isDigit(code) ? EXPONENT : FAILED;
        return;
      case EXPONENT:
        if (!isDigit(code)) this.#afterValue(code);
        return;
      case LITERAL:
        if (code !== this.#literal.charCodeAt(this.#literalAt)) this.#state = FAILED;
        else if (++this.#literalAt === this.#literal.length) this.#state = AFTER_VALUE;
        return;
      default:
        return;
    }
  }
}
