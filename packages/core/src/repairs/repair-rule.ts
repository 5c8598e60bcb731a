import { isWorkMeter, type WorkMeter } from "../work-budget.js";

/** What decode hands a rule besides the text. */
export interface RepairContext {
  /**
   * The meter of the decode the rule runs in: a rule charges the characters it examines, copies or builds
   * (`meter.charge(n)`). A rule that charges nothing is charged one pass over its input.
   */
  readonly meter: WorkMeter;
}

/**
 * The interface a package implements to add a repair (RULES.md R6). A repair only proposes text: core runs it only
 * when the original fails strict JSON, and accepts the result only when it parses to a JSON object. A rule must run
 * in linear time in the length of its input (it sees hostile text) and charge its work to `context.meter`; a rule
 * whose worst case is not linear declares `maxLength`, and longer text skips it (decode lists it in `budget`).
 *
 * @example
 * const stripBom: RepairRule = {
 *   specificationVersion: "1",
 *   id: "strip-bom",
 *   description: "a leading byte-order mark",
 *   repair: (text) => (text.startsWith("\uFEFF") ? text.slice(1) : undefined),
 * };
 */
export interface RepairRule {
  /** The version of this interface the rule implements. */
  readonly specificationVersion: "1";
  /** A stable kebab-case id, reported in `repairs` whenever the rule changed the text. */
  readonly id: string;
  /** What the rule fixes, in a few words. */
  readonly description: string;
  /**
   * The longest text the rule is run on (for a rule whose worst case is not linear, like `jsonrepair`); longer
   * text skips it, and decode lists its id in `budget`. Absent: no bound but the meter's.
   */
  readonly maxLength?: number;
  /** The repaired text, or `undefined` when the rule does not recognise the text. */
  repair(text: string, context?: RepairContext): string | undefined;
}

/**
 * Scans JSON-ish text, calling `visit` for each character outside string literals and for each opening quote.
 * Linear time.
 */
export function scanOutsideStrings(
  text: string,
  visit: (index: number, code: number) => void,
  quotes: readonly number[] = [0x22],
): void {
  let inString = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString !== 0) {
      if (c === 0x5c) i++;
      else if (c === inString) inString = 0;
      continue;
    }
    if (quotes.includes(c)) inString = c;
    visit(i, c);
  }
}

/** The meter of a rule's context, when it has a usable one (a rule called by hand may get anything). */
export function contextMeter(context: unknown): WorkMeter | undefined {
  try {
    const meter = (context as RepairContext | undefined)?.meter;
    return isWorkMeter(meter) ? meter : undefined;
  } catch {
    return undefined;
  }
}
