import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { ConformanceOperation } from "./implementation.js";
import { type ConformanceLevel, caseLevels } from "./levels.js";
import { decodeTags } from "./tags.js";

/** One test of the suite, with its group's settings merged in and tags decoded. */
export interface ConformanceCase {
  /** The test's stable id (`r1-statuses-null-is-absent`): unique across the suite, what skip lists name. */
  id: string;
  /** A readable name: `<directory>/<topic>: <group description> > <test description>`. */
  title: string;
  /** The levels at which the case has something to check (`["full"]` when it checks only full-level keys). */
  levels: ConformanceLevel[];
  rule: string;
  operation: ConformanceOperation;
  group: string;
  description: string;
  input: unknown;
  options: Record<string, unknown>;
  expected: Record<string, unknown>;
  source?: string;
  /** The vector file, relative to the vectors directory. */
  file: string;
}

/** The vectors directory shipped with this package. */
export function defaultVectorsRoot(): string {
  return fileURLToPath(new URL("../vectors", import.meta.url));
}

/** Every vector file under `root`, sorted, relative paths. */
export function listVectorFiles(root: string = defaultVectorsRoot()): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".json")) files.push(relative(root, path));
    }
  };
  walk(root);
  return files.sort();
}

interface RawGroup {
  description: string;
  rule: string;
  operation: ConformanceOperation;
  options?: Record<string, unknown>;
  source?: string;
  tests: Array<{
    id?: string;
    level?: "full";
    description: string;
    input?: unknown;
    expected: Record<string, unknown>;
    options?: Record<string, unknown>;
    source?: string;
  }>;
}

export interface LoadVectorsOptions {
  /** The vectors directory (default: the one shipped with this package, or `TOOLCALL_VECTORS`). */
  root?: string;
  /** Only these rules (`"R1"`, `"R4"` …). */
  rules?: readonly string[];
  /** Only these operations. */
  operations?: readonly ConformanceOperation[];
}

/**
 * Reads every vector file into a flat list of cases, group options merged into each test's, tags decoded. Throws on
 * a test without an `id` (`toolcall-conformance ids --write` gives one to each).
 *
 * @example
 * const cases = loadVectors({ rules: ["R1"] });
 * cases[0].id; // "r1-pinned-cases-json-object-string"
 */
export function loadVectors(options: LoadVectorsOptions = {}): ConformanceCase[] {
  const root = options.root ?? process.env.TOOLCALL_VECTORS ?? defaultVectorsRoot();
  const cases: ConformanceCase[] = [];
  for (const file of listVectorFiles(root)) {
    const groups = JSON.parse(readFileSync(join(root, file), "utf8")) as RawGroup[];
    const topic = file.replace(/\\/g, "/").replace(/\.json$/, "");
    for (const group of groups) {
      if (options.rules && !options.rules.includes(group.rule)) continue;
      if (options.operations && !options.operations.includes(group.operation)) continue;
      for (const test of group.tests) {
        const title = `${topic}: ${group.description} > ${test.description}`;
        if (typeof test.id !== "string" || test.id === "")
          throw new Error(`${file}: a test has no id (${title}); run \`toolcall-conformance ids --write\``);
        const expected = decodeTags(test.expected) as Record<string, unknown>;
        cases.push({
          id: test.id,
          title,
          // A test marked `level: "full"` pins a decision of the suite's own: none of its checks is mapping-level.
          levels: test.level === "full" ? ["full"] : caseLevels({ operation: group.operation, expected }),
          rule: group.rule,
          operation: group.operation,
          group: group.description,
          description: test.description,
          input: decodeTags(test.input),
          options: decodeTags({ ...(group.options ?? {}), ...(test.options ?? {}) }) as Record<
            string,
            unknown
          >,
          expected,
          ...((test.source ?? group.source) ? { source: test.source ?? group.source } : {}),
          file,
        });
      }
    }
  }
  return cases;
}
