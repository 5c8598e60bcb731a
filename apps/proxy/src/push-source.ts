/**
 * An async iterable fed from callbacks: what the upstream socket hands over is pushed in, and the repair pipeline
 * (which pulls) takes it out. A value pushed while a pull waits is handed over at once; nothing is batched.
 *
 * @example
 * const source = new PushSource<number>();
 * source.push(1);
 * source.end();
 * for await (const value of source) console.log(value); // 1
 */
export class PushSource<T> implements AsyncIterableIterator<T> {
  #queue: T[] = [];
  #head = 0;
  #waiting: { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void } | undefined;
  #ended = false;
  #error: { error: unknown } | undefined;
  readonly #onReturn: (() => void) | undefined;
  readonly #onWait: (() => void) | undefined;

  /**
   * `onReturn` runs when the consumer stops early; `onWait` each time the consumer has taken everything and starts
   * waiting for more (the moment to hand on what it made).
   */
  constructor(options: { onReturn?: () => void; onWait?: () => void } = {}) {
    this.#onReturn = options.onReturn;
    this.#onWait = options.onWait;
  }

  /** Whether the consumer is waiting for a value. */
  get waiting(): boolean {
    return this.#waiting !== undefined;
  }

  /** Values pushed and not yet taken. */
  get size(): number {
    return this.#queue.length - this.#head;
  }

  push(value: T): void {
    if (this.#ended) return;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      this.#waiting = undefined;
      waiting.resolve({ done: false, value });
      return;
    }
    this.#queue.push(value);
  }

  /** No more values: the consumer finishes what is queued, then ends. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.resolve({ done: true, value: undefined });
  }

  /** Ends with an error, raised once what is queued has been taken. */
  fail(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = { error };
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.reject(error);
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#head < this.#queue.length) {
      const value = this.#queue[this.#head] as T;
      this.#queue[this.#head] = undefined as T;
      this.#head++;
      if (this.#head === this.#queue.length) {
        this.#queue = [];
        this.#head = 0;
      }
      return Promise.resolve({ done: false, value });
    }
    if (this.#error !== undefined) return Promise.reject(this.#error.error);
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    const waiting = new Promise<IteratorResult<T>>((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
    this.#onWait?.();
    return waiting;
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.#ended) {
      this.#ended = true;
      this.#queue = [];
      this.#head = 0;
      this.#onReturn?.();
    }
    return Promise.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
