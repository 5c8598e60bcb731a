import { lateBound } from "./late-bound.js";
import { PyFunction } from "./py-function.js";
import { MISSING, PyObject } from "./py-object.js";
import { fail } from "./template-error.js";

/** The sandbox's limit on `range()` (Jinja's `MAX_RANGE`). */
export const MAX_RANGE = 100000;

/**
 * A Python `range`: prints `range(0, 3)`, has a length, can be indexed and sliced, iterates as often as asked.
 *
 * @example
 * new PyRange(0, 3, 1).length; // 3
 */
export class PyRange extends PyObject {
  readonly start: number;
  readonly stop: number;
  readonly step: number;
  readonly length: number;

  constructor(start: number, stop: number, step: number) {
    super();
    if (step === 0) fail("ValueError", "range() arg 3 must not be zero");
    this.start = start;
    this.stop = stop;
    this.step = step;
    const span = step > 0 ? stop - start : start - stop;
    const size = span <= 0 ? 0 : Math.floor((span - 1) / Math.abs(step)) + 1;
    this.length = size;
  }

  get pyType(): string {
    return "range";
  }

  override getAttr(name: string): unknown {
    if (name === "start") return this.start;
    if (name === "stop") return this.stop;
    if (name === "step") return this.step;
    if (name === "index" || name === "count") {
      return new PyFunction(
        name,
        (args) => {
          if (args.length !== 1)
            fail("TypeError", `range.${name}() takes exactly one argument (${args.length} given)`);
          const value = args[0];
          const found = (typeof value === "number" || typeof value === "boolean") && this.has(Number(value));
          if (name === "count") return found ? 1 : 0;
          if (!found) fail("ValueError", `${lateBound.repr(value)} is not in range`);
          return (Number(value) - this.start) / this.step;
        },
        "builtin_function_or_method",
        "range",
      );
    }
    return MISSING;
  }

  /** The item at a position inside the range. */
  at(index: number): number {
    return this.start + index * this.step;
  }

  /** Every item, as a list. */
  items(): number[] {
    const out = new Array<number>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.start + i * this.step;
    return out;
  }

  /** True when `value` (an integer) is one of the range's items. */
  has(value: number): boolean {
    if (!Number.isInteger(value)) return false;
    const offset = value - this.start;
    if (offset % this.step !== 0) return false;
    const index = offset / this.step;
    return index >= 0 && index < this.length;
  }
}
