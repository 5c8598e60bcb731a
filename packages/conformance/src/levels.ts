// The schema is bundled into the build (not read from disk) so the runner works where there is no file system.
import shippedSchema from "../vectors.schema.json";

/**
 * How much of a result the suite checks. `mapping`: what any implementation can meet (the decoded mapping, the
 * wire text, a history's shape and pairing). `full`: everything, including this suite's own vocabulary (statuses,
 * issue codes, change records) and the exact bytes and wording of its reference.
 */
export type ConformanceLevel = "mapping" | "full";

/** The levels, smallest first: each includes the checks of the ones before it. */
export const LEVELS: readonly ConformanceLevel[] = ["mapping", "full"];

/** The level of each key of an operation's `expected`, and of the keys inside its list items where they differ. */
export interface ExpectedKeyLevel {
  level: ConformanceLevel;
  /** Levels of the keys of each item (`calls[].status`), when the schema gives them. */
  items?: Record<string, ConformanceLevel>;
}

/** Operation → expected key → level, as the schema's `x-level` annotations say. */
export type ExpectedLevels = Record<string, Record<string, ExpectedKeyLevel>>;

/**
 * Whether a check of level `check` runs at level `run` (`full` runs every check, `mapping` only mapping checks).
 *
 * @example
 * levelIncludes("full", "mapping"); // true
 * levelIncludes("mapping", "full"); // false
 */
export function levelIncludes(run: ConformanceLevel, check: ConformanceLevel): boolean {
  return run === "full" || check === "mapping";
}

/** `a` or `b`, whichever checks less. */
export function lowerLevel(a: ConformanceLevel, b: ConformanceLevel): ConformanceLevel {
  return a === "mapping" || b === "mapping" ? "mapping" : "full";
}

/** Whether `value` is a level name. */
export function isLevel(value: unknown): value is ConformanceLevel {
  return value === "mapping" || value === "full";
}

type SchemaNode = Record<string, unknown>;

function resolve(schema: SchemaNode, node: unknown): SchemaNode | undefined {
  let current = node as SchemaNode | undefined;
  for (let hops = 0; current && typeof current.$ref === "string" && hops < 20; hops++) {
    const name = /^#\/\$defs\/(.+)$/.exec(current.$ref)?.[1];
    current = name === undefined ? undefined : ((schema.$defs as SchemaNode)[name] as SchemaNode);
  }
  return current;
}

/**
 * Reads the level of every expected key from the vector schema's `x-level` annotations (the single source both
 * runners read). A key without one is missing from the result: `checkVectors` reports it.
 *
 * @example
 * expectedLevels(vectorsSchema()).decode.status.level; // "full"
 */
export function expectedLevels(schema: object): ExpectedLevels {
  const root = schema as SchemaNode;
  const defs = (root.$defs ?? {}) as SchemaNode;
  const operations = (
    resolve(root, (defs.group as SchemaNode | undefined)?.properties) as SchemaNode | undefined
  )?.operation as SchemaNode | undefined;
  const out: ExpectedLevels = {};
  for (const operation of (operations?.enum ?? []) as string[]) {
    const expected = resolve(root, defs[`expected.${operation}`]);
    const keys: Record<string, ExpectedKeyLevel> = {};
    for (const [key, raw] of Object.entries((expected?.properties ?? {}) as SchemaNode)) {
      const property = raw as SchemaNode;
      const level = property["x-level"] ?? resolve(root, property)?.["x-level"];
      if (!isLevel(level)) continue;
      const entry: ExpectedKeyLevel = { level };
      const itemProperties = resolve(root, resolve(root, property)?.items)?.properties as
        | SchemaNode
        | undefined;
      if (itemProperties) {
        const items: Record<string, ConformanceLevel> = {};
        for (const [itemKey, itemRaw] of Object.entries(itemProperties)) {
          const itemLevel = (itemRaw as SchemaNode)["x-level"];
          if (isLevel(itemLevel)) items[itemKey] = itemLevel;
        }
        if (Object.keys(items).length > 0) entry.items = items;
      }
      keys[key] = entry;
    }
    out[operation] = keys;
  }
  return out;
}

let shipped: ExpectedLevels | undefined;

/** The levels of the schema shipped with this package (read once). */
export function shippedExpectedLevels(): ExpectedLevels {
  shipped ??= expectedLevels(shippedSchema);
  return shipped;
}

/**
 * The levels at which a case has something to check: `mapping` when one of its expected keys (or item keys) is a
 * mapping-level key, `full` always. A case with only full-level keys (a status, issue codes) is not run at the
 * mapping level.
 *
 * @example
 * caseLevels({ operation: "decode", expected: { status: "empty", arguments: {} } }); // ["mapping", "full"]
 */
export function caseLevels(
  testCase: { operation: string; expected: Record<string, unknown> },
  levels: ExpectedLevels = shippedExpectedLevels(),
): ConformanceLevel[] {
  const keys = levels[testCase.operation] ?? {};
  // A list whose items hold only full-level keys (`calls: [{ status }]`) still checks its length at the mapping level.
  const mapping = Object.keys(testCase.expected).some((key) => keys[key]?.level === "mapping");
  return mapping ? ["mapping", "full"] : ["full"];
}
