#!/usr/bin/env node
// Totals every package's test results (vitest JSON reports and pytest JUnit XML under .test-results/) into one
// closing line, "N passed, N failed, N skipped", so a run is judged by what ran, not only by its exit code.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..");
let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];
for (const group of ["packages", "apps"]) {
  const dir = join(root, group);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir)) {
    const results = join(dir, name, ".test-results");
    if (!existsSync(results)) continue;
    for (const file of readdirSync(results)) {
      const text = readFileSync(join(results, file), "utf8");
      let p = 0;
      let f = 0;
      let s = 0;
      if (file.endsWith(".json")) {
        const report = JSON.parse(text);
        p = report.numPassedTests;
        f = report.numFailedTests;
        s = report.numPendingTests + report.numTodoTests;
      } else if (file.endsWith(".xml")) {
        const suite = /<testsuite\b[^>]*>/.exec(text)?.[0] ?? "";
        const attr = (a) => Number(new RegExp(`\\b${a}="(\\d+)"`).exec(suite)?.[1] ?? 0);
        s = attr("skipped");
        f = attr("failures") + attr("errors");
        p = attr("tests") - s - f;
      }
      rows.push(
        `${`${group}/${name}/${file}`.padEnd(52)} ${String(p).padStart(5)} passed ${String(f).padStart(3)} failed ${String(s).padStart(4)} skipped`,
      );
      passed += p;
      failed += f;
      skipped += s;
    }
  }
}
console.log(rows.join("\n"));
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
