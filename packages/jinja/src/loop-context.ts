import { eq } from "./operators.js";
import { fail } from "./template-error.js";
import { LoopLike, PyFunction, Undefined } from "./values.js";

/** Jinja's `loop` variable inside a `for` block. */
export class LoopContext extends LoopLike {
  index0 = -1;
  readonly items: unknown[];
  readonly depth0: number;
  /** The arguments of the last `loop.changed(…)` that answered true. */
  lastChanged: unknown[] | undefined;

  constructor(items: unknown[], depth0 = 0) {
    super();
    this.items = items;
    this.depth0 = depth0;
  }

  get length(): number {
    return this.items.length;
  }
}

/** `loop.NAME`. */
export function loopAttribute(loop: LoopContext, name: string): unknown {
  const i = loop.index0;
  const length = loop.items.length;
  switch (name) {
    case "index0":
      return i;
    case "index":
      return i + 1;
    case "length":
      return length;
    case "revindex":
      return length - i;
    case "revindex0":
      return length - i - 1;
    case "first":
      return i === 0;
    case "last":
      return i === length - 1;
    case "depth":
      return loop.depth0 + 1;
    case "depth0":
      return loop.depth0;
    case "previtem":
      return i > 0 ? loop.items[i - 1] : new Undefined({ hint: "there is no previous item" });
    case "nextitem":
      return i < length - 1 ? loop.items[i + 1] : new Undefined({ hint: "there is no next item" });
    case "cycle":
      return new PyFunction("cycle", (args) => {
        if (args.length === 0) fail("TypeError", "no items for cycling given");
        return args[i % args.length];
      });
    case "changed":
      return new PyFunction("changed", (args) => {
        const previous = loop.lastChanged;
        if (
          previous === undefined ||
          previous.length !== args.length ||
          args.some((a, k) => !eq(a, previous[k]))
        ) {
          loop.lastChanged = args;
          return true;
        }
        return false;
      });
    default:
      return new Undefined({ obj: loop, name });
  }
}
