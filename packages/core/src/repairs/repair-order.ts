import { isArraySafe, LIST_WALK_LIMIT, listEntries } from "../read-history.js";
import { coreRepairs } from "./index.js";
import type { RepairRule } from "./repair-rule.js";

/**
 * Every repair id RULES.md R6 names, in the one order they run whatever order they are given in. R6 names no order
 * (its table is not one); this is core's decision: `gemma-quote-markers` first, because until Gemma's quote markers are cleaned a marker-quoted string has the wrong
 * boundaries, and the rules that edit outside strings (trailing commas, control characters) would edit inside it;
 * then core's pipeline (unwrap, fix syntax, collapse repeats); `jsonrepair`, the most aggressive, last.
 *
 * @example
 * REPAIR_ORDER[0]; // "gemma-quote-markers"
 * REPAIR_ORDER.at(-1); // "jsonrepair"
 */
export const REPAIR_ORDER: readonly string[] = Object.freeze([
  "gemma-quote-markers",
  ...coreRepairs.map((rule) => rule.id),
  "jsonrepair",
]);

const RANK = new Map(REPAIR_ORDER.map((id, index) => [id, index]));
/** A rule R6 does not name (a caller's own): after core's, before `jsonrepair`. */
const OTHER_RANK = REPAIR_ORDER.length - 1.5;

/** A rule's id, or `undefined` when it has none that can be read as a string (such a rule is never applied). */
export function repairIdOf(rule: RepairRule): string | undefined {
  try {
    const id: unknown = rule.id;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

/** A rule's `maxLength` when it declares a usable one, else `Infinity` (read without throwing). */
export function repairMaxLengthOf(rule: RepairRule): number {
  try {
    const max: unknown = rule.maxLength;
    return typeof max === "number" && !Number.isNaN(max) ? max : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function rankOf(rule: RepairRule): number {
  const id = repairIdOf(rule);
  return id === undefined ? OTHER_RANK : (RANK.get(id) ?? OTHER_RANK);
}

/**
 * The rules in {@link REPAIR_ORDER}'s order; rules it does not name keep their order among themselves, after
 * core's and before `jsonrepair`. The list itself when it is in order already (no copy); never changes it.
 * `decodeArguments` runs repairs through this, so `[...coreRepairs, gemmaQuoteMarkers]` and
 * `[gemmaQuoteMarkers, ...coreRepairs]` repair alike.
 *
 * @example
 * orderRepairs([trailingCommas, markdownFence]).map((rule) => rule.id); // ["markdown-fence", "trailing-commas"]
 */
export function orderRepairs(rules: readonly RepairRule[]): readonly RepairRule[] {
  if (!isArraySafe(rules)) return [];
  // A long sparse list is read by the rules it holds (a hole is no rule).
  if (rules.length > LIST_WALK_LIMIT) return orderRepairs((listEntries(rules)?.values ?? []) as RepairRule[]);
  let previous = Number.NEGATIVE_INFINITY;
  let ordered = true;
  for (const rule of rules) {
    const rank = rankOf(rule);
    if (rank < previous) {
      ordered = false;
      break;
    }
    previous = rank;
  }
  if (ordered) return rules;
  // Array.prototype.sort is stable: equal ranks keep their order.
  return rules
    .map((rule, index) => ({ rule, rank: rankOf(rule), index }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.rule);
}

/** Repair names as a user gives them, checked: the ids to run, in {@link REPAIR_ORDER}'s order, or why not. */
export type RepairNames = { ok: true; ids: string[] } | { ok: false; error: string };

const GROUPS = ["core", "none"];

/**
 * Turns repair names as a command line or a configuration gives them (a list, repeated and/or comma-separated, or
 * one comma-separated string) into repair ids in {@link REPAIR_ORDER}'s order: each id of it, `core` for all of core's, `none` for no repair at all (alone).
 * Unknown names are refused with the list of known ones, never ignored. No names at all is no repair; a caller
 * with a default applies it before.
 *
 * @example
 * parseRepairNames(["jsonrepair,core", "gemma-quote-markers"]);
 * // { ok: true, ids: ["gemma-quote-markers", "markdown-fence", …, "repeated-object", "jsonrepair"] }
 * parseRepairNames(["fix-everything"]); // { ok: false, error: 'unknown repair "fix-everything"; known: core, none, …' }
 */
export function parseRepairNames(names: readonly string[] | string): RepairNames {
  const list: readonly unknown[] =
    typeof names === "string" ? [names] : isArraySafe(names) ? (listEntries(names)?.values ?? []) : [names];
  const wanted = new Set<string>();
  for (const name of list) {
    if (typeof name !== "string")
      return { ok: false, error: `repair names are strings, not ${name === null ? "null" : typeof name}` };
    for (const part of name.split(",")) if (part.trim() !== "") wanted.add(part.trim());
  }
  const unknown = [...wanted].filter((name) => !GROUPS.includes(name) && !RANK.has(name));
  if (unknown.length > 0) {
    const known = [...GROUPS, ...REPAIR_ORDER].join(", ");
    return {
      ok: false,
      error: `unknown repair ${unknown.map((n) => JSON.stringify(n)).join(", ")}; known: ${known}`,
    };
  }
  if (wanted.has("none")) {
    if (wanted.size > 1) return { ok: false, error: "repair none cannot be combined with other repairs" };
    return { ok: true, ids: [] };
  }
  const core = wanted.has("core");
  return {
    ok: true,
    ids: REPAIR_ORDER.filter((id) => wanted.has(id) || (core && coreRepairs.some((rule) => rule.id === id))),
  };
}
