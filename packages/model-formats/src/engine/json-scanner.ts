import { DEFAULT_MAX_DEPTH } from "@toolcall/core/kit";

/** What the scanner tells its listener about members of shallow containers (depth ≤ `trackDepth`). */
export interface JsonListener {
  /** A key of an object at `depth` (1: the top object) was read; `raw` is its JSON text with quotes. */
  key?(depth: number, raw: string): void;
  /** A value starts at `offset` (characters from the start of the JSON text) inside a container at `depth`. */
  valueStart?(depth: number, offset: number, first: string): void;
  /** That value ends just before `offset`. */
  valueEnd?(depth: number, offset: number): void;
}

enum S {
  Value,
  KeyOrEnd,
  Key,
  Colon,
  AfterValue,
  String,
  Escape,
  Unicode,
  Minus,
  Zero,
  Int,
  Dot,
  Frac,
  Exp,
  ExpSign,
  ExpDigits,
  Literal,
  Done,
  Error,
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** Why {@link JsonScanner.feed} stopped: the text ran out, the value is complete, or the text is not JSON. */
export type JsonFeed = "more" | "done" | "error";

/**
 * A strict (RFC 8259) JSON scanner fed piece by piece: it keeps its state between pieces, so each character is
 * examined once however the text is split. It reads one object or array and stops right after it; the character
 * that makes the text invalid is not consumed. Nesting deeper than `maxDepth` is an error, as in core's decode.
 */
export class JsonScanner {
  #state = S.Value;
  #stack: number[] = []; // 0x7b or 0x5b per open container
  #offset = 0; // characters consumed so far
  #literal = "";
  #literalAt = 0;
  #unicode = 0;
  #isKey = false;
  #keyParts: string[] = [];
  #keyStart = -1; // index in the current piece where the key being read started
  /** Offset of index 0 of the text being fed (offsets are counted from the start of the JSON text). */
  #base = 0;
  error = "";
  readonly #listener: JsonListener;
  readonly #trackDepth: number;
  readonly #maxDepth: number;

  constructor(options: { listener?: JsonListener; trackDepth?: number; maxDepth?: number } = {}) {
    this.#listener = options.listener ?? {};
    this.#trackDepth = options.trackDepth ?? 0;
    this.#maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  }

  /** After {@link feed}: the index in the fed text just after the last character consumed. */
  end = 0;

  /** Characters consumed so far. */
  get offset(): number {
    return this.#offset;
  }

  #fail(message: string): "error" {
    this.#state = S.Error;
    this.error = message;
    return "error";
  }

  #startValue(c: number, text: string, i: number): "ok" | "error" {
    const depth = this.#stack.length;
    const starts =
      c === 0x7b ||
      c === 0x5b ||
      c === 0x22 ||
      c === 0x2d ||
      c === 0x74 ||
      c === 0x66 ||
      c === 0x6e ||
      isDigit(c);
    // Only a character that can start a value starts one: a stream and a whole text must see the same events.
    if (starts && depth > 0 && depth <= this.#trackDepth)
      this.#listener.valueStart?.(depth, this.#base + i, text[i] as string);
    switch (c) {
      case 0x7b:
      case 0x5b:
        if (depth + 1 > this.#maxDepth) return this.#fail(`nesting deeper than ${this.#maxDepth}`);
        this.#stack.push(c);
        this.#state = c === 0x7b ? S.KeyOrEnd : S.Value;
        if (c === 0x5b) this.#arrayStart = true;
        return "ok";
      case 0x22:
        this.#state = S.String;
        this.#isKey = false;
        return "ok";
      case 0x2d:
        this.#state = S.Minus;
        return "ok";
      case 0x74:
      case 0x66:
      case 0x6e:
        this.#literal = c === 0x74 ? "true" : c === 0x66 ? "false" : "null";
        this.#literalAt = 1;
        this.#state = S.Literal;
        return "ok";
      default:
        if (isDigit(c)) {
          this.#state = c === 0x30 ? S.Zero : S.Int;
          return "ok";
        }
        return this.#fail(`unexpected ${JSON.stringify(text[i])}`);
    }
  }

  #arrayStart = false;

  #endValue(offsetAfter: number): void {
    const depth = this.#stack.length;
    if (depth > 0 && depth <= this.#trackDepth) this.#listener.valueEnd?.(depth, offsetAfter);
    this.#state = depth === 0 ? S.Done : S.AfterValue;
  }

  /** Feeds `text` from `from`; stops at the end of the text, after the top-level value, or at an invalid character. */
  feed(text: string, from = 0): JsonFeed {
    let i = from;
    const n = text.length;
    const base = this.#offset - from;
    this.#base = base;
    const finish = (state: JsonFeed): JsonFeed => {
      if (this.#isKey && this.#keyStart !== -1 && state === "more") {
        this.#keyParts.push(text.slice(this.#keyStart, i));
        this.#keyStart = 0;
      }
      this.#offset = base + i;
      this.end = i;
      return state;
    };
    if (this.#isKey && this.#keyStart !== -1) this.#keyStart = from;
    while (i < n) {
      const c = text.charCodeAt(i);
      switch (this.#state) {
        case S.Done:
          return finish("done");
        case S.Error:
          return finish("error");
        case S.String: {
          // The common case: plain characters up to the closing quote.
          while (i < n) {
            const d = text.charCodeAt(i);
            if (d === 0x22 || d === 0x5c || d < 0x20) break;
            i++;
          }
          if (i >= n) break;
          const d = text.charCodeAt(i);
          if (d === 0x5c) {
            this.#state = S.Escape;
            i++;
            break;
          }
          if (d < 0x20) return finish(this.#fail("control character in a string"));
          i++;
          if (this.#isKey) {
            this.#keyParts.push(text.slice(this.#keyStart, i));
            this.#keyStart = -1;
            this.#isKey = false;
            const depth = this.#stack.length;
            if (depth <= this.#trackDepth) this.#listener.key?.(depth, this.#keyParts.join(""));
            this.#keyParts = [];
            this.#state = S.Colon;
          } else {
            this.#endValue(base + i);
          }
          break;
        }
        case S.Escape:
          if (c === 0x75) {
            this.#state = S.Unicode;
            this.#unicode = 0;
          } else if ('"\\/bfnrt'.includes(text[i] as string)) this.#state = S.String;
          else return finish(this.#fail("invalid escape"));
          i++;
          break;
        case S.Unicode:
          if (!isHex(c)) return finish(this.#fail("invalid \\u escape"));
          if (++this.#unicode === 4) this.#state = S.String;
          i++;
          break;
        case S.Literal:
          if (c !== this.#literal.charCodeAt(this.#literalAt))
            return finish(this.#fail(`unexpected ${JSON.stringify(text[i])}`));
          i++;
          if (++this.#literalAt === this.#literal.length) this.#endValue(base + i);
          break;
        case S.Minus:
          if (c === 0x30) this.#state = S.Zero;
          else if (isDigit(c)) this.#state = S.Int;
          else return finish(this.#fail("a digit must follow -"));
          i++;
          break;
        case S.Zero:
        case S.Int:
        case S.Frac:
        case S.ExpDigits:
          if (isDigit(c) && this.#state !== S.Zero) {
            i++;
          } else if (c === 0x2e && (this.#state === S.Zero || this.#state === S.Int)) {
            this.#state = S.Dot;
            i++;
          } else if ((c === 0x65 || c === 0x45) && this.#state !== S.ExpDigits) {
            this.#state = S.Exp;
            i++;
          } else if (isDigit(c)) {
            return finish(this.#fail("a number may not start with 0"));
          } else {
            // The number ended just before this character, which is read as what follows a value.
            this.#endValue(base + i);
          }
          break;
        case S.Dot:
          if (!isDigit(c)) return finish(this.#fail("a digit must follow ."));
          this.#state = S.Frac;
          i++;
          break;
        case S.Exp:
          if (c === 0x2b || c === 0x2d) this.#state = S.ExpSign;
          else if (isDigit(c)) this.#state = S.ExpDigits;
          else return finish(this.#fail("a digit must follow e"));
          i++;
          break;
        case S.ExpSign:
          if (!isDigit(c)) return finish(this.#fail("a digit must follow the exponent sign"));
          this.#state = S.ExpDigits;
          i++;
          break;
        default: {
          if (isSpace(c)) {
            i++;
            break;
          }
          if (this.#state === S.Value) {
            if (c === 0x5d && this.#arrayStart) {
              this.#arrayStart = false;
              this.#stack.pop();
              i++;
              this.#endValue(base + i);
              break;
            }
            this.#arrayStart = false;
            if (this.#stack.length === 0 && c !== 0x7b && c !== 0x5b)
              return finish(this.#fail("expected an object or an array"));
            if (this.#startValue(c, text, i) === "error") return finish("error");
            i++;
            break;
          }
          if (this.#state === S.KeyOrEnd || this.#state === S.Key) {
            if (c === 0x7d && this.#state === S.KeyOrEnd) {
              this.#stack.pop();
              i++;
              this.#endValue(base + i);
              break;
            }
            if (c !== 0x22) return finish(this.#fail("expected a key"));
            this.#state = S.String;
            this.#isKey = true;
            this.#keyStart = i;
            i++;
            break;
          }
          if (this.#state === S.Colon) {
            if (c !== 0x3a) return finish(this.#fail("expected :"));
            this.#state = S.Value;
            i++;
            break;
          }
          // After a value: a comma or the container's closer.
          const top = this.#stack[this.#stack.length - 1];
          if (c === 0x2c) {
            this.#state = top === 0x7b ? S.Key : S.Value;
            i++;
            break;
          }
          if ((c === 0x7d && top === 0x7b) || (c === 0x5d && top === 0x5b)) {
            this.#stack.pop();
            i++;
            this.#endValue(base + i);
            break;
          }
          return finish(this.#fail(`unexpected ${JSON.stringify(text[i])}`));
        }
      }
      if ((this.#state as S) === S.Done) return finish("done");
    }
    return finish(this.#state === S.Done ? "done" : this.#state === S.Error ? "error" : "more");
  }

  /** True once the top-level value is complete. */
  get done(): boolean {
    return this.#state === S.Done;
  }
}
