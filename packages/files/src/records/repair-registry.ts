import { coreRepairs, createJsonrepairRepair } from "@toolcall/core";
import { parseRepairNames, type RepairRule } from "@toolcall/core/kit";

/**
 * The repair rules that names stand for, or why a name stands for none.
 *
 * @example
 * const resolved: ResolveRepairsResult = await resolveRepairs(["core"]);
 */
export type ResolveRepairsResult = { ok: true; rules: RepairRule[] } | { ok: false; error: string };

async function loadGemmaQuoteMarkers(): Promise<RepairRule | string> {
  try {
    const module = (await import("@toolcall/gemma-recovery")) as { gemmaQuoteMarkers?: RepairRule };
    return module.gemmaQuoteMarkers ?? "@toolcall/gemma-recovery exports no gemmaQuoteMarkers";
  } catch (error) {
    return `gemma-quote-markers needs @toolcall/gemma-recovery, which could not be loaded (${error instanceof Error ? error.message : String(error)})`;
  }
}

async function loadJsonrepair(): Promise<RepairRule | string> {
  try {
    const module = (await import("jsonrepair")) as { jsonrepair: (text: string) => string };
    return createJsonrepairRepair(module.jsonrepair);
  } catch (error) {
    return `jsonrepair could not be loaded (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** The rule behind each id; the optional ones are loaded only when named. */
async function ruleFor(id: string): Promise<RepairRule | string> {
  if (id === "gemma-quote-markers") return loadGemmaQuoteMarkers();
  if (id === "jsonrepair") return loadJsonrepair();
  return coreRepairs.find((rule) => rule.id === id) ?? `no repair rule ${JSON.stringify(id)}`;
}

/**
 * Turns `--repair` names (repeated, or comma-separated) into repair rules. Which names exist, what `core` and
 * `none` mean and the order the rules run in are core's (`parseRepairNames`, `REPAIR_ORDER`); this loads the rules of
 * the optional ones (`gemma-quote-markers`, `jsonrepair`) only when they are named.
 *
 * @example
 * const resolved = await resolveRepairs(["core", "jsonrepair"]);
 * resolved.ok && resolved.rules.map((rule) => rule.id); // ["markdown-fence", …, "repeated-object", "jsonrepair"]
 */
export async function resolveRepairs(names: readonly string[]): Promise<ResolveRepairsResult> {
  const parsed = parseRepairNames(names);
  if (!parsed.ok) return parsed;
  const rules: RepairRule[] = [];
  for (const id of parsed.ids) {
    const rule = await ruleFor(id);
    if (typeof rule === "string") return { ok: false, error: rule };
    rules.push(rule);
  }
  return { ok: true, rules };
}
