import { eq } from "./operators.js";
import { DONE, type PyIterator } from "./py-iterator.js";
import { MISSING, PyObject } from "./py-object.js";
import { PyFunction, tuple, Undefined } from "./python-values.js";
import { fail } from "./template-error.js";

/**
 * Jinja's `loop` variable: index, length, first/last, previous and next item, `cycle`, `changed`, `depth`, and
 * `loop(…)` in a recursive loop. Over a list its items are known; over a generator (a filtered loop, `map`, …)
 * they are pulled one at a time, and `length`, `last`, `nextitem` pull ahead only when asked, as Python does.
 */
export class LoopContext extends PyObject {
  index0 = -1;
  readonly depth0: number;
  /** The items pulled so far (all of them for a list). */
  readonly items: unknown[];
  private pending: PyIterator | null;
  /** The length of the iterable when Python's `len()` answers it without draining. */
  private readonly knownLength: number | null;
  /** The arguments of the last `loop.changed(…)` that answered true. */
  lastChanged: unknown[] | undefined;
  /** `loop(iterable)` of a recursive loop. */
  readonly recurse: ((iterable: unknown, depth: number) => unknown) | null;

  constructor(options: {
    items: unknown[];
    pending?: PyIterator | null;
    length?: number | null;
    depth0?: number;
    recurse?: ((iterable: unknown, depth: number) => unknown) | null;
  }) {
    super();
    this.items = options.items;
    this.pending = options.pending ?? null;
    this.knownLength = options.length ?? (this.pending === null ? this.items.length : null);
    this.depth0 = options.depth0 ?? 0;
    this.recurse = options.recurse ?? null;
  }

  get pyType(): string {
    return "LoopContext";
  }

  override get pyModule(): string {
    return "jinja2.runtime";
  }

  /** Makes the item at `index` available if the iterable has one; false at the end. */
  has(index: number): boolean {
    if (index < this.items.length) return true;
    while (this.items.length <= index) {
      if (this.pending === null) return false;
      const item = this.pending.next();
      if (item === DONE) {
        this.pending = null;
        return false;
      }
      this.items.push(item);
    }
    return true;
  }

  get length(): number {
    if (this.knownLength !== null) return this.knownLength;
    while (this.has(this.items.length)) {
      // pull the rest
    }
    return this.items.length;
  }

  override getAttr(name: string): unknown {
    const i = this.index0;
    switch (name) {
      case "index0":
        return i;
      case "index":
        return i + 1;
      case "length":
        return this.length;
      case "revindex":
        return this.length - i;
      case "revindex0":
        return this.length - i - 1;
      case "first":
        return i === 0;
      case "last":
        return !this.has(i + 1);
      case "depth":
        return this.depth0 + 1;
      case "depth0":
        return this.depth0;
      case "previtem":
        return i > 0 ? this.items[i - 1] : new Undefined({ hint: "there is no previous item" });
      case "nextitem":
        return this.has(i + 1) ? this.items[i + 1] : new Undefined({ hint: "there is no next item" });
      case "cycle":
        return new PyFunction(
          "cycle",
          (args) => {
            if (args.length === 0) fail("TypeError", "no items for cycling given");
            return args[i % args.length];
          },
          "method",
          `LoopContext.cycle of <LoopContext ${i + 1}/${this.length}>`,
        );
      case "changed":
        return new PyFunction(
          "changed",
          (args) => {
            const previous = this.lastChanged;
            if (previous !== undefined && eq(tuple(previous.slice()), tuple(args.slice()))) return false;
            this.lastChanged = args;
            return true;
          },
          "method",
          `LoopContext.changed of <LoopContext ${i + 1}/${this.length}>`,
        );
      case "__call__":
        return new PyFunction("__call__", (args) => {
          if (this.recurse === null)
            fail("TypeError", "The loop must have the 'recursive' marker to be called recursively.");
          if (args.length !== 1)
            fail(
              "TypeError",
              `LoopContext.__call__() takes 2 positional arguments but ${args.length + 1} were given`,
            );
          return this.recurse(args[0], this.depth0 + 1);
        });
      case "__repr__":
        return `<LoopContext ${i + 1}/${this.length}>`;
      default:
        return MISSING;
    }
  }
}
