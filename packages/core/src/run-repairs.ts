import { JsonNumber } from "./json-number.js";
import type { parseJson } from "./parse-json.js";
import { orderRepairs, repairIdOf, repairMaxLengthOf } from "./repairs/repair-order.js";
import type { RepairRule } from "./repairs/repair-rule.js";
import type { ArgumentsMapping } from "./types.js";
import type { WorkMeter } from "./work-budget.js";

/**
 * A parsed JSON object (the lossless parser's numbers are objects too, and are not mappings).
 *
 * @example
 * isJsonObject(JSON.parse('{"a": 1}')); // true
 * isJsonObject(JSON.parse("[1]")); // false
 */
export function isJsonObject(value: unknown): value is ArgumentsMapping {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof JsonNumber)
  );
}

/** What the repairs made of failing text: the object and the ids applied, or the rules left out for the budget. */
export type RepairOutcome =
  | { ok: true; mapping: ArgumentsMapping; applied: string[]; text: string }
  | { ok: false; budget: string[] };

/** Calls one rule with the guard that keeps decode total: a rule that throws did not apply. */
function callRule(rule: RepairRule, text: string, meter: WorkMeter): string | undefined {
  const before = meter.steps;
  let next: string | undefined;
  try {
    next = rule.repair(text, { meter });
  } catch {
    next = undefined;
  }
  // A rule that counts nothing is charged one pass over its input, and what it built.
  if (meter.steps === before) meter.charge(text.length + (typeof next === "string" ? next.length : 0));
  return typeof next === "string" ? next : undefined;
}

/**
 * Runs the enabled repairs over failing text, cumulatively and in one order ({@link orderRepairs}); accepts the
 * result only when it parses to a JSON object. A rule is left out (listed in `budget`) when the text is longer than
 * its `maxLength` or the meter has run out. Yields after each rule that ran (with the parse of its result): the
 * steps of `decodeArgumentsSteps`.
 *
 * @example
 * const outcome = runSteps(runRepairs("{'a': 1}", coreRepairs, parse, createWorkMeter({ limit: 10_000 }), false));
 * outcome.ok && outcome.applied; // ["python-literal"]
 */
export function* runRepairs(
  text: string,
  repairs: readonly RepairRule[],
  parse: (text: string) => ReturnType<typeof parseJson>,
  meter: WorkMeter,
  stepped: boolean,
): Generator<void, RepairOutcome, void> {
  let current = text;
  const applied: string[] = [];
  const budget: string[] = [];
  let ran = false;
  for (const rule of orderRepairs(repairs)) {
    // An applied repair is reported by its id (R6): a rule without a readable string id is not applied.
    const id = repairIdOf(rule);
    if (id === undefined) continue;
    if (meter.exhausted || current.length > repairMaxLengthOf(rule)) {
      budget.push(id);
      continue;
    }
    // Run at once (`decodeArguments`), the rules go on without suspending.
    if (ran && stepped) yield;
    ran = true;
    const next = callRule(rule, current, meter);
    if (next === undefined || next === current) continue;
    if (meter.exhausted) {
      // The rule ran past the budget: its text is not parsed, and it counts as not tried.
      budget.push(id);
      continue;
    }
    current = next;
    applied.push(id);
    meter.charge(current.length);
    const parsed = parse(current);
    if (parsed.success && isJsonObject(parsed.value))
      return { ok: true, mapping: parsed.value, applied, text: current };
  }
  return { ok: false, budget };
}
