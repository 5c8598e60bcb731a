import { coreRepairs, createJsonrepairRepair } from "@toolcall/core";
import { parseRepairNames, REPAIR_ORDER, type RepairRule } from "@toolcall/core/kit";
import { gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
import { jsonrepair } from "jsonrepair";

/** Every repair the proxy can run (each one RULES.md R6 names), by id. */
const AVAILABLE = new Map<string, RepairRule>(
  [...coreRepairs, gemmaQuoteMarkers, createJsonrepairRepair(jsonrepair)].map((rule) => [rule.id, rule]),
);

/**
 * The names `--repair` accepts: `core` (all of core's rules), `none`, and every rule's id.
 *
 * @example
 * REPAIR_NAMES.includes("jsonrepair"); // true
 */
export const REPAIR_NAMES: readonly string[] = ["core", "none", ...REPAIR_ORDER];

/**
 * Turns `--repair` names (repeated or comma-separated) into the rules core runs. Which names exist, what `core` and
 * `none` mean and the order the rules run in are core's (`parseRepairNames`, RULES.md R6: `gemma-quote-markers`,
 * core's pipeline, `jsonrepair`), whatever the order of the names.
 *
 * @example
 * resolveRepairs(["core", "gemma-quote-markers"]); // { ok: true, repairs: [gemmaQuoteMarkers, markdownFence, …] }
 * resolveRepairs(["fix-everything"]); // { ok: false, error: 'unknown repair "fix-everything"; known: …' }
 */
export function resolveRepairs(
  names: readonly string[],
): { ok: true; repairs: RepairRule[] } | { ok: false; error: string } {
  const parsed = parseRepairNames(names);
  if (!parsed.ok) return parsed;
  const repairs: RepairRule[] = [];
  for (const id of parsed.ids) {
    const rule = AVAILABLE.get(id);
    if (rule === undefined) return { ok: false, error: `no repair rule ${JSON.stringify(id)}` };
    repairs.push(rule);
  }
  return { ok: true, repairs };
}
