import { describe, expect, it } from "vitest";
import type { ConformanceImplementation } from "./implementation.js";
import { type ConformanceCase, type LoadVectorsOptions, loadVectors } from "./load-vectors.js";
import { runTest } from "./run-test.js";

export interface DescribeConformanceOptions extends LoadVectorsOptions {
  /** The implementation under test. */
  implementation: ConformanceImplementation;
  /** Case ids to skip (reported as skipped by vitest). */
  skip?: Iterable<string>;
  /** A title for the outer `describe` (default: the implementation's name). */
  title?: string;
  /** Where render vectors that name a shared template file find it (default `$TOOLCALL_TEMPLATES`). */
  templatesDir?: string;
}

/**
 * Registers the conformance suite as vitest tests: one `describe` per vector file and group, one `it` per case.
 * Cases the implementation cannot run (a missing operation or repair) are reported as skipped, never as passed.
 *
 * @example
 * // conformance.test.ts
 * import { describeConformance } from "@toolcall/conformance/vitest";
 * describeConformance({ implementation: myImplementation, skip: ["r6/repairs: … > …"] });
 */
export function describeConformance(options: DescribeConformanceOptions): ConformanceCase[] {
  const cases = loadVectors(options);
  const skip = new Set(options.skip ?? []);
  const byGroup = new Map<string, ConformanceCase[]>();
  for (const testCase of cases) {
    const key = `${testCase.file} — ${testCase.rule} ${testCase.operation}: ${testCase.group}`;
    byGroup.set(key, [...(byGroup.get(key) ?? []), testCase]);
  }
  describe(options.title ?? `conformance: ${options.implementation.name ?? "implementation"}`, () => {
    it("has vectors to run", () => {
      expect(cases.length).toBeGreaterThan(0);
    });
    for (const [group, groupCases] of byGroup) {
      describe(group, () => {
        for (const testCase of groupCases) {
          it(testCase.description, async (context) => {
            if (skip.has(testCase.id)) {
              context.skip("in the skip list");
              return;
            }
            const outcome = await runTest(options.implementation, testCase, {
              templatesDir: options.templatesDir,
            });
            if (outcome.status === "skip") {
              context.skip(outcome.messages.join("; "));
              return;
            }
            expect(outcome.messages, testCase.id).toEqual([]);
          });
        }
      });
    }
  });
  return cases;
}
