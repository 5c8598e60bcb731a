import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { ConformanceOperation } from "./implementation.js";
import { decodeTags } from "./tags.js";

/** One test of the suite, with its group's settings merged in and tags decoded. */
export interface ConformanceCase {
  /** `<directory>/<topic>: <group description> > <test description>`; stable, used by skip lists. */
  id: string;
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
 * Reads every vector file into a flat list of cases, group options merged into each test's, tags decoded.
 *
 * @example
 * const cases = loadVectors({ rules: ["R1"] });
 * cases[0].id; // "r1/pinned-cases: … > …"
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
        cases.push({
          id: `${topic}: ${group.description} > ${test.description}`,
          rule: group.rule,
          operation: group.operation,
          group: group.description,
          description: test.description,
          input: decodeTags(test.input),
          options: decodeTags({ ...(group.options ?? {}), ...(test.options ?? {}) }) as Record<
            string,
            unknown
          >,
          expected: decodeTags(test.expected) as Record<string, unknown>,
          ...((test.source ?? group.source) ? { source: test.source ?? group.source } : {}),
          file,
        });
      }
    }
  }
  return cases;
}
