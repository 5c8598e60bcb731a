import { coreRepairs, createJsonrepairRepair, type RepairRule } from "@toolcall/core";

/** Every name `--repair` accepts: each core repair id, `core` (all of them), the optional ones, and `none`. */
export const REPAIR_NAMES: readonly string[] = [
  ...coreRepairs.map((rule) => rule.id),
  "core",
  "gemma-quote-markers",
  "jsonrepair",
  "none",
];

export type ResolveRepairsResult =
  | { ok: true; rules: RepairRule[]; names: string[] }
  | { ok: false; error: string };

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

/**
 * Turns `--repair` names (repeated, or comma-separated) into core repair rules, in one fixed order whatever the
 * order of the flags: `gemma-quote-markers` first (leaked markers hide every other defect), then core's rules in
 * core's pipeline order, then `jsonrepair` last (the most aggressive, tried on what the others left).
 *
 * @example
 * const resolved = await resolveRepairs(["core", "jsonrepair"]);
 * resolved.ok && resolved.rules.map((rule) => rule.id); // ["markdown-fence", …, "repeated-object", "jsonrepair"]
 */
export async function resolveRepairs(names: readonly string[]): Promise<ResolveRepairsResult> {
  const wanted = new Set(
    names
      .flatMap((name) => name.split(","))
      .map((name) => name.trim())
      .filter((name) => name !== ""),
  );
  const unknown = [...wanted].filter((name) => !REPAIR_NAMES.includes(name));
  if (unknown.length > 0) {
    return {
      ok: false,
      error: `unknown repair ${unknown.map((name) => JSON.stringify(name)).join(", ")}; known: ${REPAIR_NAMES.join(", ")}`,
    };
  }
  if (wanted.has("none")) {
    if (wanted.size > 1) return { ok: false, error: "--repair none cannot be combined with other repairs" };
    return { ok: true, rules: [], names: ["none"] };
  }
  const rules: RepairRule[] = [];
  if (wanted.has("gemma-quote-markers")) {
    const rule = await loadGemmaQuoteMarkers();
    if (typeof rule === "string") return { ok: false, error: rule };
    rules.push(rule);
  }
  for (const rule of coreRepairs) if (wanted.has("core") || wanted.has(rule.id)) rules.push(rule);
  if (wanted.has("jsonrepair")) {
    const rule = await loadJsonrepair();
    if (typeof rule === "string") return { ok: false, error: rule };
    rules.push(rule);
  }
  return { ok: true, rules, names: [...wanted] };
}
