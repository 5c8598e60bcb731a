import { Markup } from "./markup.js";
import { fail } from "./template-error.js";

/**
 * The work and the text one render may take. CPython renders until memory runs out; a JavaScript engine aborts the
 * whole process at its heap limit (or fails with a bare `RangeError` at its string limit), and a template can ask
 * for either in a few bytes (`'%.1000000000f' % 1.5`, a macro that doubles its argument thirty times). Renders stay
 * bounded by two budgets instead:
 * - the output budget: no string (the output or any value on the way) longer than `maxOutputLength` characters.
 *   Past it, the render raises Python's `MemoryError`, which is what CPython raises where memory runs out.
 * - the step budget: `maxSteps` units of work: {@link CALL_STEPS} per loop iteration, macro or function call, and
 *   one per item or character a filter or method is given or returns, or a string is built of. Past it, the render
 *   raises `TemplateError` of type `StepLimitError` (Python has no such limit: it would run on).
 */

/** The default output budget: 32 Mi characters, far past any prompt a model takes (1 M tokens is about 4 M). */
export const DEFAULT_MAX_OUTPUT_LENGTH = 2 ** 25;
/**
 * Steps one loop iteration or call costs: it does about as much work as copying this many characters, so that one
 * budget bounds the time of loops and of string work alike.
 */
export const CALL_STEPS = 16;
/**
 * The default step budget: 2^28 steps, 16 M loop iterations or 256 M characters handled, a few seconds of work at
 * most. Real chat templates take well under 1% of it on conversations of a million characters.
 */
export const DEFAULT_MAX_STEPS = 2 ** 28;

/** The budgets of the render in progress (renders are synchronous, so one at a time per thread). */
export const budget = {
  /** Steps left. */
  steps: DEFAULT_MAX_STEPS,
  /** The longest string allowed. */
  maxOutputLength: DEFAULT_MAX_OUTPUT_LENGTH,
  /** The step budget the render started with, for the error message. */
  maxSteps: DEFAULT_MAX_STEPS,
};

/**
 * Starts a render's budgets.
 *
 * @example
 * startBudget({ maxSteps: 1000, maxOutputLength: 1 << 20 });
 */
export function startBudget(options: {
  maxSteps?: number;
  maxOutputLength?: number;
  meter?: { steps: number; limit: number };
}): void {
  let maxSteps = validLimit(options.maxSteps, DEFAULT_MAX_STEPS, "maxSteps");
  if (options.meter !== undefined)
    maxSteps = Math.min(maxSteps, Math.max(0, options.meter.limit - options.meter.steps));
  // Counted down from a finite number, so that the steps taken can be told even without a limit.
  budget.maxSteps = Math.min(maxSteps, Number.MAX_SAFE_INTEGER);
  budget.steps = budget.maxSteps;
  budget.maxOutputLength = validLimit(options.maxOutputLength, DEFAULT_MAX_OUTPUT_LENGTH, "maxOutputLength");
}

/**
 * The steps the render in progress (or the last one) has taken.
 *
 * @example
 * stepsTaken(); // 0 right after startBudget
 */
export function stepsTaken(): number {
  return budget.maxSteps - budget.steps;
}

function validLimit(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(value >= 0)) throw new RangeError(`${name} must be a number of at least 0, got ${String(value)}`);
  return value;
}

function stepsExhausted(): never {
  // The step that did not fit counts: a meter that set the limit reads as exhausted.
  budget.steps = -1;
  return fail("StepLimitError", `the render took more than ${budget.maxSteps} steps (the maxSteps option)`);
}

/**
 * Takes `count` steps from the budget; raises `StepLimitError` when none are left.
 *
 * @example
 * chargeSteps(items.length);
 */
export function chargeSteps(count: number): void {
  budget.steps -= count;
  if (budget.steps < 0) stepsExhausted();
}

/**
 * Takes the steps of a loop iteration or a call ({@link CALL_STEPS}).
 *
 * @example
 * chargeStep();
 */
export function chargeStep(): void {
  budget.steps -= CALL_STEPS;
  if (budget.steps < 0) stepsExhausted();
}

/**
 * Raises Python's `MemoryError` when a string of `length` characters would pass the output budget, and charges
 * the steps of building it; call it before building a string whose size an argument decides (a width, a precision,
 * a repeat count).
 *
 * @example
 * checkLength(width); // before " ".repeat(width)
 */
export function checkLength(length: number): void {
  if (length > budget.maxOutputLength) outputExhausted();
  chargeSteps(length);
}

/**
 * Raises the output budget's `MemoryError` (with Python's empty message).
 *
 * @example
 * if (text.length > budget.maxOutputLength) outputExhausted();
 */
export function outputExhausted(): never {
  // `str(MemoryError())` is empty in Python, and a caller comparing errors with CPython's sees the same text.
  return fail("MemoryError", "");
}

/**
 * The size a filter or method is charged for what it is given and what it returns: the characters of a string, the
 * items of a list, dict, range or view.
 *
 * @example
 * chargeSteps(sizeOf(value));
 */
export function sizeOf(value: unknown): number {
  if (typeof value === "string" || Array.isArray(value)) return value.length + 1;
  if (value instanceof Map) return value.size + 1;
  if (value instanceof Markup) return value.text.length + 1;
  if (typeof value === "object" && value !== null) {
    // A range or a dict view: its length, when it tells one.
    const length = (value as { length?: unknown }).length;
    if (typeof length === "number" && length >= 0) return length + 1;
  }
  return 1;
}

/**
 * Charges the size of a result (see {@link sizeOf}) and hands it on.
 *
 * @example
 * return charged(callMethod(obj, name, args, kwargs));
 */
export function charged<T>(result: T): T {
  chargeSteps(sizeOf(result));
  return result;
}
