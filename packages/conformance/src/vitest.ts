import { describe, expect, it } from "vitest";
import type { ConformanceImplementation } from "./implementation.js";
import { type ConformanceCase, type LoadVectorsOptions, loadVectors } from "./load-vectors.js";
import { runTest } from "./run-test.js";

export interface DescribeConformanceOptions extends LoadVectorsOptions {
  /** The implementation under test. */
  implementation: ConformanceImplementation;
  /**
   * Cases to skip, reported as skipped by vitest: case ids, or an object from case id to the reason it is skipped
   * (the reason is the skip's note, which the test summary lists).
   */
  skip?: Iterable<string> | Readonly<Record<string, string>>;
  /** A title for the outer `describe` (default: the implementation's name). */
  title?: string;
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
  const skip = skipReasons(options.skip);
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
            const reason = skip.get(testCase.id);
            if (reason !== undefined) {
              context.skip(reason);
              return;
            }
            const outcome = await runTest(options.implementation, testCase);
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

function skipReasons(skip: DescribeConformanceOptions["skip"]): Map<string, string> {
  if (skip === undefined) return new Map();
  if (typeof (skip as Iterable<string>)[Symbol.iterator] === "function")
    return new Map([...(skip as Iterable<string>)].map((id) => [id, "in the skip list"]));
  return new Map(Object.entries(skip as Readonly<Record<string, string>>));
}
