// A vitest reporter every package's test script adds beside the default one. It writes
// `.test-results/vitest.json`: the counts, every failure, every skipped test with its reason (the note given to
// `context.skip(note)`), and any file that failed to load or error thrown outside a test. The test summary
// (scripts/summarize-tests.mjs) reads it; a skip without a reason counts there as a failure.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

export default class ResultsReporter {
  onInit(vitest) {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules, unhandledErrors) {
    const results = { runner: "vitest", passed: 0, failed: 0, skipped: 0, failures: [], skips: [] };
    for (const module of testModules) {
      const file = relative(this.root, module.moduleId);
      for (const error of module.errors()) {
        results.failed++;
        results.failures.push({ file, test: "(loading the file)", message: error.message ?? String(error) });
      }
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === "passed") results.passed++;
        else if (result.state === "failed") {
          results.failed++;
          results.failures.push({
            file,
            test: test.fullName,
            message: (result.errors ?? []).map((e) => e.message).join("\n"),
          });
        } else {
          results.skipped++;
          const mode = test.options.mode;
          const note = result.note?.trim();
          results.skips.push({ file, test: test.fullName, reason: note || undefined, mode });
        }
      }
    }
    for (const error of unhandledErrors) {
      results.failed++;
      results.failures.push({
        file: "",
        test: "(an error outside any test)",
        message: error.message ?? String(error),
      });
    }
    mkdirSync(join(this.root, ".test-results"), { recursive: true });
    writeFileSync(join(this.root, ".test-results", "vitest.json"), `${JSON.stringify(results, null, 1)}\n`);
  }
}
