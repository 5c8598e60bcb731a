/**
 * The work budget every repair and every parser runs under (RULES.md R6: linear time on hostile input).
 *
 * Work is counted in **units**: one unit is one character examined, compared, copied or parsed (a native
 * `indexOf`, `slice` or `JSON.parse` costs the characters it covers). A repair or parser charges what it does to a
 * {@link WorkMeter}; the meter's limit is linear in the input's length ({@link linearWorkLimit}). Past the limit
 * the work in progress stops: a repair does not apply (decode keeps the text, status `invalid`, and lists the
 * repairs it left out in `budget`), a parser leaves the rest of the text in content.
 *
 * The same meter is the test instrument: a test hands in a meter without a limit, runs the code on growing
 * adversarial input, and asserts `meter.steps <= c * n`. Counted work is deterministic, so such a test cannot flake
 * on a busy machine the way a timed one does.
 */

/**
 * Units one input character may cost: the documented constant of "linear". Every repair and parser of this
 * project stays under it on any input (the linear-work tests assert it on adversarial families up to 1 MB); the
 * default budget of {@link linearWorkLimit} is built from it.
 *
 * @example
 * linearWorkLimit(1000) === WORK_UNITS_BASE + WORK_UNITS_PER_CHAR * 1000; // true
 */
export const WORK_UNITS_PER_CHAR = 128;

/**
 * Units any input may cost beyond its per-character share: the fixed cost of a short input (a call to a rule, a
 * table of tokens tried once).
 *
 * @example
 * linearWorkLimit(0); // WORK_UNITS_BASE
 */
export const WORK_UNITS_BASE = 16_384;

/** Counts units of work against a limit. Any object of this shape works: parsers take one in their options. */
export interface WorkMeter {
  /** Units charged so far. */
  readonly steps: number;
  /** The most units that may be charged; `Infinity` for a meter that only counts. */
  readonly limit: number;
  /** True once `steps` passed `limit`; it stays true. */
  readonly exhausted: boolean;
  /** Adds `units` (a negative or non-numeric amount counts as 0); `false` once the total is past the limit. */
  charge(units: number): boolean;
  /** Raises the limit by `units`: a stream grants each delta its share as it arrives. */
  grant(units: number): void;
}

/** What `createWorkMeter` takes: the most units of work that may be charged. */
export interface WorkMeterOptions {
  /** The most units that may be charged (default `Infinity`: the meter only counts). */
  limit?: number;
}

class Meter implements WorkMeter {
  steps = 0;
  limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  get exhausted(): boolean {
    return this.steps > this.limit;
  }

  charge(units: number): boolean {
    if (units > 0) this.steps += units;
    return this.steps <= this.limit;
  }

  grant(units: number): void {
    if (units > 0) this.limit += units;
  }
}

/**
 * A new meter. Without a limit it only counts, which is what a test that asserts linear work wants.
 *
 * @example
 * const meter = createWorkMeter();
 * decodeArguments('{"a": 1,}', { repairs: coreRepairs, meter });
 * meter.steps; // the units decoding cost: a small multiple of the text's length
 *
 * const tight = createWorkMeter({ limit: 10 });
 * tight.charge(8); // true
 * tight.charge(8); // false: tight.exhausted is now true
 */
export function createWorkMeter(options: WorkMeterOptions = {}): WorkMeter {
  const limit = options.limit;
  return new Meter(typeof limit === "number" && !Number.isNaN(limit) ? limit : Number.POSITIVE_INFINITY);
}

/**
 * The default budget for an input of `length` characters: `WORK_UNITS_BASE + WORK_UNITS_PER_CHAR * length`.
 *
 * @example
 * const meter = createWorkMeter({ limit: linearWorkLimit(text.length) });
 */
export function linearWorkLimit(length: number): number {
  const size = typeof length === "number" && length > 0 ? length : 0;
  return WORK_UNITS_BASE + WORK_UNITS_PER_CHAR * size;
}

/**
 * The meter a repair or parser runs under: the caller's own when one is given (its limit applies, and it may be
 * shared by several calls), else a new one with the {@link linearWorkLimit} for an input of `length` characters.
 *
 * @example
 * function parseMyFormat(text: string, options: { meter?: WorkMeter } = {}) {
 *   const meter = resolveWorkMeter({ meter: options.meter, length: text.length });
 *   // … charge the scans; stop when meter.charge(…) returns false
 * }
 */
export function resolveWorkMeter(options: { meter?: unknown; length: number }): WorkMeter {
  return isWorkMeter(options.meter)
    ? options.meter
    : createWorkMeter({ limit: linearWorkLimit(options.length) });
}

/**
 * True for an object with the meter's shape (`charge` and `grant` functions): a caller's own meter is used as it
 * is, anything else is ignored.
 *
 * @example
 * isWorkMeter(createWorkMeter()); // true
 * isWorkMeter({}); // false
 */
export function isWorkMeter(value: unknown): value is WorkMeter {
  try {
    return (
      typeof value === "object" &&
      value !== null &&
      typeof (value as WorkMeter).charge === "function" &&
      typeof (value as WorkMeter).grant === "function"
    );
  } catch {
    return false;
  }
}

/**
 * `text.indexOf(search, from)` that charges `meter` the characters the search covered (to the match's end, or to
 * the end of the text when there is none). The one primitive a scanner needs to stay honest about re-scanning.
 *
 * @example
 * const meter = createWorkMeter();
 * meteredIndexOf({ text: "abcabc", search: "c", from: 3, meter }); // 5; meter.steps is 3
 */
export function meteredIndexOf(options: {
  text: string;
  search: string;
  from?: number;
  meter: WorkMeter;
}): number {
  const { text, search, meter } = options;
  const from = Math.max(0, options.from ?? 0);
  const found = text.indexOf(search, from);
  meter.charge((found === -1 ? text.length : found + search.length) - from);
  return found;
}
