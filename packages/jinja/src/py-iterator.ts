import { PyObject } from "./py-object.js";

/**
 * A Python iterator: a generator (`map`, `select`, `reject`, `selectattr`, `rejectattr`, `unique`, `batch`,
 * `slice`, `items` return one) or a reverse iterator (`reverse` of a list). Lazy and single-use, as in Python:
 * iterating it twice gives its items once; it has no `len()`, cannot be indexed or serialised to JSON, and is
 * always true.
 *
 * @example
 * const g = new PyIterator("generator", "sync_do_map", [1, 2][Symbol.iterator]());
 * g.next(); // 1
 */
export class PyIterator extends PyObject {
  /** The Python type name (`generator`, `list_reverseiterator`, …). */
  readonly type: string;
  /** The generator's function name, for its repr. */
  readonly functionName: string;
  private source: Iterator<unknown> | null;

  constructor(type: string, functionName: string, source: Iterator<unknown>) {
    super();
    this.type = type;
    this.functionName = functionName;
    this.source = source;
  }

  get pyType(): string {
    return this.type;
  }

  /** The next item, or {@link DONE} once exhausted (then always). */
  next(): unknown {
    if (this.source === null) return DONE;
    const step = this.source.next();
    if (step.done) {
      this.source = null;
      return DONE;
    }
    return step.value;
  }

  /** Every item left (the iterator is exhausted afterwards). */
  drain(): unknown[] {
    const out: unknown[] = [];
    for (let item = this.next(); item !== DONE; item = this.next()) out.push(item);
    return out;
  }
}

/** The end of a {@link PyIterator}. */
export const DONE: unique symbol = Symbol("done");

/**
 * A Python generator over a JavaScript generator function (which runs only when iterated, as Python's does).
 *
 * @example
 * generator("sync_do_map", function* () { yield 1; });
 */
export function generator(functionName: string, body: () => Iterator<unknown>): PyIterator {
  let inner: Iterator<unknown> | null = null;
  return new PyIterator("generator", functionName, {
    next() {
      inner ??= body();
      return inner.next();
    },
  });
}
