// Results of a step that is not a test runner (the release, the consumer smoke test, the doc tests), in the shape the
// vitest reporter writes (scripts/vitest-results-reporter.mjs), so the summary reads every step the same way.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * A recorder of named checks: `await results.check(name, fn)` runs `fn`, records a pass or the error, and never
 * throws; `results.skip(name, reason)` records a check not run and why; `results.write()` saves
 * `.test-results/<step>.json` at the repository root and returns the number of failures.
 */
export function createResults(step) {
  const results = { runner: step, passed: 0, failed: 0, skipped: 0, failures: [], skips: [] };
  return {
    async check(name, fn) {
      try {
        const value = await fn();
        results.passed++;
        return value;
      } catch (error) {
        results.failed++;
        const message = `${error?.stdout ?? ""}${error?.stderr ?? ""}${error?.message ?? String(error)}`;
        results.failures.push({ file: step, test: name, message: message.trim() });
        console.error(`${step}: ${name}: FAILED\n${message.trim()}`);
        return undefined;
      }
    },
    skip(name, reason) {
      results.skipped++;
      results.skips.push({ file: step, test: name, reason });
    },
    get failed() {
      return results.failed;
    },
    write() {
      const file = join(root, ".test-results", `${step}.json`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);
      return results.failed;
    },
  };
}
