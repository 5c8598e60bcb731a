/**
 * A JSON number kept as the text it was written as, so integers beyond 2^53 keep every digit and `1.0` stays a
 * float. Produced by lossless decoding; written back exactly by {@link encodeArguments}.
 *
 * @example
 * const n = new JsonNumber("12345678901234567890");
 * n.text; // "12345678901234567890"
 * n.isInteger; // true
 */
export class JsonNumber {
  /** The number's source text, exactly as it appeared in the JSON text. */
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  /** True when the text has no fraction and no exponent (Python reads it as an `int`). */
  get isInteger(): boolean {
    return !/[.eE]/.test(this.text);
  }

  /** The nearest JavaScript number (digits beyond 2^53 are lost here, and only here). */
  valueOf(): number {
    return Number(this.text);
  }

  /** `JSON.stringify` sees the nearest number; `encodeArguments` writes the exact text. */
  toJSON(): number {
    return Number(this.text);
  }

  toString(): string {
    return this.text;
  }

  /** A `bigint` for integer text, else `undefined`. */
  toBigInt(): bigint | undefined {
    return this.isInteger ? BigInt(this.text) : undefined;
  }

  /** True for values made by any copy of this class (safe across duplicated installs). */
  static isInstance(value: unknown): value is JsonNumber {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}

const marker = Symbol.for("@toolcall/core/JsonNumber");
Object.defineProperty(JsonNumber.prototype, marker, { value: true });
