/**
 * Characters of work the step-wise repairs do between two yields, by default: 64 Ki. At the slowest rate a repair
 * reaches (about 50 ns a character for a repair rule on hostile text; `JSON.parse` is about ten times faster) that is
 * a few milliseconds. One unit that cannot be split (a `JSON.parse` of the body, one repair rule over one call's
 * arguments, one extractor over one choice's content) may do more: it is one step whatever its size.
 */
export const RESPONSE_STEP_SIZE = 64 * 1024;

/**
 * Arguments up to this length (4 Ki characters) are repaired in one step: every rule over them costs a millisecond or
 * two at most, less than going through core's steps would add to an ordinary answer.
 */
export const SMALL_ARGUMENTS = 4 * 1024;

/**
 * Paces step-wise work: units of work (characters) add up, and a yield is due once they reach the step size. Steps
 * smaller than that are merged, so a small answer is repaired with no yield at all.
 */
export class StepPace {
  #done = 0;

  constructor(readonly size: number) {}

  /** Adds the work of one step; true when a yield is due (the count starts again). */
  add(work: number): boolean {
    this.#done += work;
    if (this.#done < this.size) return false;
    this.#done = 0;
    return true;
  }

  /** Runs weighted steps (each yield says how much work it did), yielding whenever a yield is due. */
  *through<T>(steps: Generator<number, T, void>): Generator<void, T, void> {
    for (;;) {
      const next = steps.next();
      if (next.done === true) return next.value;
      if (this.add(next.value)) yield;
    }
  }
}

/**
 * Core's steps (`…Steps` generators, which yield nothing) weighted: each of them, and the last, worth `work`.
 */
export function* weighted<T>(steps: Generator<void, T, void>, work: number): Generator<number, T, void> {
  for (;;) {
    const next = steps.next();
    if (next.done === true) {
      yield work;
      return next.value;
    }
    yield work;
  }
}
