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

/** What {@link casesFromVectors} reads. */
export interface CasesFromVectorsOptions {
  /** Vector files: each one's path relative to the vectors directory (`r1/statuses.json`) and its parsed JSON. */
  files: ReadonlyArray<{ file: string; groups: unknown }>;
  /** Only these rules (`"R1"`, `"R4"` …). */
  rules?: readonly string[];
  /** Only these operations. */
  operations?: readonly ConformanceOperation[];
}

/**
 * Vector files already parsed, as a flat list of cases: group options merged into each test's, tags decoded. It
 * reads no file: in a browser or an edge runtime, hand it the vector files your bundler imported. Throws on a
 * test without an `id`.
 *
 * @example
 * import statuses from "@toolcall/conformance/vectors/r1/statuses.json";
 * const cases = casesFromVectors({ files: [{ file: "r1/statuses.json", groups: statuses }] });
 * cases[0].id; // "r1-statuses-…"
 */
export function casesFromVectors(options: CasesFromVectorsOptions): ConformanceCase[] {
  const cases: ConformanceCase[] = [];
  for (const { file, groups: parsed } of options.files) {
    const groups = parsed as RawGroup[];
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
