import { PyObject } from "./py-object.js";

/** The end of a {@link PyIterator}. */
export const DONE: unique symbol = Symbol("done");

/** Gives the next item, or {@link DONE}. */
export type Pull = () => unknown;

/**
 * A Python iterator: a generator (`map`, `select`, `reject`, `selectattr`, `rejectattr`, `unique`, `batch`,
 * `slice`, `items` return one) or a reverse iterator (`reverse` of a list). Lazy and single-use, as in Python:
 * iterating it twice gives its items once; it has no `len()`, cannot be indexed or serialised to JSON, and is
 * always true.
 *
 * @example
 * const items = [1, 2];
 * let i = 0;
 * const g = new PyIterator("generator", "sync_do_map", () => (i < items.length ? items[i++] : DONE));
 * g.next(); // 1
 */
export class PyIterator extends PyObject {
  /** The Python type name (`generator`, `list_reverseiterator`, …). */
  readonly type: string;
  /** The generator's function name, for its repr. */
  readonly functionName: string;
  private pull: Pull | null;
  /**
   * For an iterator whose items cannot raise or change anything once started (`items`, `reverse`): computes them
   * all at once, so a loop can take them as a list. Python would pull them one by one; nothing observable differs.
   */
  private readonly pure: (() => unknown[]) | null;
  private buffer: unknown[] | null = null;
  private position = 0;
  /** Gives every item in one pass when nothing was pulled yet (the same work as pulling them all, in order). */
  private whole: (() => unknown[]) | null;

  constructor(
    type: string,
    functionName: string,
    pull: Pull | null,
    pure: (() => unknown[]) | null = null,
    whole: (() => unknown[]) | null = null,
  ) {
    super();
    this.type = type;
    this.functionName = functionName;
    this.pull = pull;
    this.pure = pure;
    this.whole = whole;
  }

  get pyType(): string {
    return this.type;
  }

  /** The remaining items of a pure iterator, taking them all (then it is exhausted); undefined for a generator. */
  takeAll(): unknown[] | undefined {
    if (this.pure === null) return undefined;
    const items = this.buffer ?? this.pure();
    const rest = this.position === 0 ? items : items.slice(this.position);
    this.buffer = [];
    this.position = 0;
    return rest;
  }

  /** The next item, or {@link DONE} once exhausted (then always). */
  next(): unknown {
    this.whole = null;
    if (this.pure !== null) {
      this.buffer ??= this.pure();
      return this.position < this.buffer.length ? this.buffer[this.position++] : DONE;
    }
    if (this.pull === null) return DONE;
    const item = this.pull();
    if (item === DONE) this.pull = null;
    return item;
  }

  /** Every item left (the iterator is exhausted afterwards). */
  drain(): unknown[] {
    const all = this.takeAll();
    if (all !== undefined) return all;
    if (this.whole !== null && this.pull !== null) {
      const whole = this.whole;
      this.whole = null;
      this.pull = null;
      return whole();
    }
    const out: unknown[] = [];
    for (let item = this.next(); item !== DONE; item = this.next()) out.push(item);
    return out;
  }
}

/**
 * A Python generator over a JavaScript generator function (which runs only when iterated, as Python's does).
 *
 * @example
 * generator("do_batch", function* () { yield 1; });
 */
export function generator(functionName: string, body: () => Iterator<unknown>): PyIterator {
  let inner: Iterator<unknown> | null = null;
  return new PyIterator("generator", functionName, () => {
    inner ??= body();
    const step = inner.next();
    return step.done ? DONE : step.value;
  });
}

/**
 * A Python generator whose body is set up on the first pull (`start` runs then, as a generator's first lines do)
 * and then gives its items through the pull `start` returned: the fast form of {@link generator}.
 *
 * @example
 * lazyGenerator("sync_do_map", () => () => DONE);
 */
export function lazyGenerator(functionName: string, start: () => Pull, whole?: () => unknown[]): PyIterator {
  let pull: Pull | null = null;
  return new PyIterator(
    "generator",
    functionName,
    () => {
      pull ??= start();
      return pull();
    },
    null,
    whole ?? null,
  );
}

/**
 * A Python iterator over items computed at first use, for ones that can neither raise midway nor depend on when
 * they are pulled (`dict.items()` through `items`, a reverse iterator).
 *
 * @example
 * pureIterator("generator", "do_items", () => [1, 2]).drain(); // [1, 2]
 */
export function pureIterator(type: string, functionName: string, items: () => unknown[]): PyIterator {
  return new PyIterator(type, functionName, null, items);
}

/**
 * Pulls a sequence's items one at a time: a list's by index, an iterator's from it.
 *
 * @example
 * const pull = puller([1]); pull(); // 1, then DONE
 */
export function puller(source: unknown[] | PyIterator): Pull {
  if (source instanceof PyIterator) return () => source.next();
  let i = 0;
  return () => (i < source.length ? source[i++] : DONE);
}
