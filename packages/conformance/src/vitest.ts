import { describe, expect, it } from "vitest";
import { type ConformanceImplementation, checkImplementation } from "./implementation.js";
import { type ConformanceLevel, isLevel } from "./levels.js";
import { type ConformanceCase, type LoadVectorsOptions, loadVectors } from "./load-vectors.js";
import { runTest } from "./node-run-test.js";
import { skipList } from "./skip-list.js";

export { expectConversationFormat } from "./expect-conversation-format.js";
export { expectFormatHostile } from "./expect-format-hostile.js";
export { expectFormatLossless } from "./expect-format-lossless.js";

/** What `describeConformance` takes: the vectors to load, the implementation under test, and the cases to skip with their reasons. */
export interface DescribeConformanceOptions extends LoadVectorsOptions {
  /** The implementation under test. */
  implementation: ConformanceImplementation;
  /**
   * Vector ids, or id prefixes ending in `*` (`r1-lossless-*`), to skip (reported as skipped by vitest); or an object
   * from such an entry to the reason it is skipped, which becomes the skipped test's note.
   */
  skip?: Iterable<string> | Readonly<Record<string, string>>;
  /** The level to check at (default: the implementation's declared `level`, else `full`). */
  level?: ConformanceLevel;
  /** A title for the outer `describe` (default: the implementation's name). */
  title?: string;
  /** Where render vectors that name a shared template file find it (default `$TOOLCALL_TEMPLATES`). */
  templatesDir?: string;
}

/**
 * The failure text of a case: its id, then one line per differing field
 * (`r1-statuses-null-is-absent: status: expected "absent", got "object"`).
 */
function failureText(testCase: ConformanceCase, messages: readonly string[]): string {
  const [first, ...rest] = messages;
  return [`${testCase.id}: ${first}`, ...rest.map((m) => `  ${m}`), `  (${testCase.title})`].join("\n");
}

/**
 * Registers the conformance suite as vitest tests: one `describe` per vector file and group, one `it` per case,
 * named by its description and id. Cases the implementation cannot run (a missing operation or repair, nothing to
 * check at the level) are reported as skipped, never as passed. A failure names the vector id and each field that
 * differs. The implementation's declaration and the skip list are tests too: an unknown operation or a skip entry
 * that names no vector fails, never skips silently.
 *
 * @example
 * // conformance.test.ts
 * import { describeConformance } from "@toolcall/conformance/vitest";
 * describeConformance({ implementation: myImplementation, level: "mapping", skip: ["r1-lossless-*"] });
 */
export function describeConformance(options: DescribeConformanceOptions): ConformanceCase[] {
  const cases = loadVectors(options);
  const reasons = skipReasons(options.skip);
  const skip = skipList(reasons.keys());
  const implementation = options.implementation;
  const level: ConformanceLevel =
    options.level ?? (isLevel(implementation.level) ? implementation.level : "full");
  const byGroup = new Map<string, ConformanceCase[]>();
  for (const testCase of cases) {
    const key = `${testCase.file} — ${testCase.rule} ${testCase.operation}: ${testCase.group}`;
    byGroup.set(key, [...(byGroup.get(key) ?? []), testCase]);
  }
  describe(options.title ?? `conformance (${level}): ${implementation.name ?? "implementation"}`, () => {
    it("has vectors to run", () => {
      expect(cases.length).toBeGreaterThan(0);
    });
    it("declares only operations and a level the suite knows", () => {
      expect(checkImplementation(implementation)).toEqual([]);
    });
    it("skips only vectors that exist", () => {
      const every = loadVectors(options.root === undefined ? {} : { root: options.root });
      expect(skip.unmatched(every.map((c) => c.id)), "skip entries naming no vector id").toEqual([]);
    });
    for (const [group, groupCases] of byGroup) {
      describe(group, () => {
        for (const testCase of groupCases) {
          it(`${testCase.description} (${testCase.id})`, async (context) => {
            const entry = skip.match(testCase.id);
            if (entry !== undefined && testCase.levels.includes(level)) {
              context.skip(reasons.get(entry) ?? `in the skip list (${entry})`);
              return;
            }
            const outcome = await runTest(implementation, testCase, {
              level,
              templatesDir: options.templatesDir,
            });
            if (outcome.status === "skip") {
              context.skip(outcome.messages.join("; "));
              return;
            }
            if (outcome.status === "fail") expect.fail(failureText(testCase, outcome.messages));
          });
        }
      });
    }
  });
  return cases;
}

/** Skip entries and their reasons (`undefined` where a plain list gave none). */
function skipReasons(skip: DescribeConformanceOptions["skip"]): Map<string, string | undefined> {
  if (skip === undefined) return new Map();
  if (typeof (skip as Iterable<string>)[Symbol.iterator] === "function")
    return new Map([...(skip as Iterable<string>)].map((entry) => [entry, undefined]));
  return new Map(Object.entries(skip as Readonly<Record<string, string>>));
}
