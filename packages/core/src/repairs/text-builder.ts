const CHUNK = 8192;

/**
 * Builds a string code unit by code unit into a fixed buffer, flushed in 8 K chunks: linear time without the
 * million small strings that `+=` makes on hostile input (the garbage collector, not the algorithm, then dominates).
 * Lone surrogates pass through unchanged.
 */
export class TextBuilder {
  readonly #buffer = new Uint16Array(CHUNK);
  #length = 0;
  readonly #chunks: string[] = [];

  pushCode(code: number): void {
    if (this.#length === CHUNK) this.#flush();
    this.#buffer[this.#length++] = code;
  }

  /** Appends `text.slice(start, end)`. */
  pushRange(text: string, start: number, end: number): void {
    for (let i = start; i < end; i++) this.pushCode(text.charCodeAt(i));
  }

  pushString(text: string): void {
    this.pushRange(text, 0, text.length);
  }

  #flush(): void {
    this.#chunks.push(
      String.fromCharCode.apply(null, this.#buffer.subarray(0, this.#length) as unknown as number[]),
    );
    this.#length = 0;
  }

  toString(): string {
    this.#flush();
    return this.#chunks.join("");
  }
}
