import { coreRepairs, createJsonrepairRepair, type RepairRule } from "@toolcall/core";
import { gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
import { jsonrepair } from "jsonrepair";

/**
 * The repair names `--repair` takes besides each rule's own id.
 *
 * @example
 * REPAIR_GROUPS.includes("core"); // true
 */
export const REPAIR_GROUPS = ["core", "none"] as const;

/** Every repair the proxy can run, in the order it runs them: core's pipeline, then Gemma's, then `jsonrepair`. */
const AVAILABLE: readonly RepairRule[] = [
  ...coreRepairs,
  gemmaQuoteMarkers,
  createJsonrepairRepair(jsonrepair),
];

/**
 * The ids `--repair` accepts: every rule's id, plus `core` (all of core's rules) and `none`.
 *
 * @example
 * REPAIR_NAMES.includes("jsonrepair"); // true
 */
export const REPAIR_NAMES: readonly string[] = [...REPAIR_GROUPS, ...AVAILABLE.map((rule) => rule.id)];

/**
 * Turns `--repair` names into the rules core runs (RULES.md R6). Order does not depend on the order of the names:
 * core's own pipeline order, then `gemma-quote-markers`, then `jsonrepair` (the most aggressive, tried last).
 *
 * @example
 * resolveRepairs(["core", "gemma-quote-markers"]); // { ok: true, repairs: [markdownFence, …, gemmaQuoteMarkers] }
 * resolveRepairs(["fix-everything"]); // { ok: false, error: "unknown repair …" }
 */
export function resolveRepairs(
  names: readonly string[],
): { ok: true; repairs: RepairRule[] } | { ok: false; error: string } {
  const wanted = new Set<string>();
  for (const name of names) {
    if (name === "none") continue;
    if (name === "core") {
      for (const rule of coreRepairs) wanted.add(rule.id);
      continue;
    }
    if (!AVAILABLE.some((rule) => rule.id === name))
      return {
        ok: false,
        error: `unknown repair ${JSON.stringify(name)} (known: ${REPAIR_NAMES.join(", ")})`,
      };
    wanted.add(name);
  }
  return { ok: true, repairs: AVAILABLE.filter((rule) => wanted.has(rule.id)) };
}
