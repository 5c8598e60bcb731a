#!/usr/bin/env node
// Reads every results file of a test run and prints what it says. Test runners write them: vitest through
// scripts/vitest-results-reporter.mjs (`<package>/.test-results/vitest.json`), pytest as JUnit XML
// (`<package>/.test-results/pytest.xml`), the release, consumer and doc-test steps through scripts/lib/results.mjs
// (`.test-results/<step>.json` at the root). A skipped test must say why: one without a reason counts as failed.
// On its own (`node scripts/summarize-tests.mjs`) it totals whatever results are on disk; scripts/run-all.mjs
// imports it for the summary of `pnpm test`.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { root } from "./lib/results.mjs";

const unescapeXml = (text) =>
  text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, "&");

/** A pytest JUnit XML report in the results shape. */
export function readJUnit(text) {
  const results = { runner: "pytest", passed: 0, failed: 0, skipped: 0, failures: [], skips: [] };
  for (const match of text.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attr = (source, name) => unescapeXml(new RegExp(`\\b${name}="([^"]*)"`).exec(source)?.[1] ?? "");
    const test = `${attr(match[1], "classname")}::${attr(match[1], "name")}`;
    const body = match[3] ?? "";
    const failure = /<(failure|error)\b([^>]*)>/.exec(body);
    const skipped = /<skipped\b([^>]*)>/.exec(body) ?? /<skipped\b([^>]*)\/>/.exec(body);
    if (failure) {
      results.failed++;
      results.failures.push({
        file: attr(match[1], "file") || attr(match[1], "classname"),
        test,
        message: attr(failure[2], "message"),
      });
    } else if (skipped) {
      results.skipped++;
      results.skips.push({
        file: attr(match[1], "classname"),
        test,
        reason: attr(skipped[1], "message") || undefined,
      });
    } else results.passed++;
  }
  return results;
}

/** Every results file of one package (its `.test-results`) or of the root steps, read. */
export function readResults(dir) {
  const results = join(dir, ".test-results");
  if (!existsSync(results)) return [];
  return readdirSync(results)
    .sort()
    .flatMap((file) => {
      const text = readFileSync(join(results, file), "utf8");
      if (file.endsWith(".xml")) return [{ file, ...readJUnit(text) }];
      if (!file.endsWith(".json")) return [];
      const json = JSON.parse(text);
      if (Array.isArray(json.skips)) return [{ file, ...json }];
      // vitest's own JSON report (a package whose test script does not use the results reporter): no skip reasons.
      const tests = (json.testResults ?? []).flatMap((f) =>
        f.assertionResults.map((a) => ({ file: f.name, ...a })),
      );
      return [
        {
          file,
          runner: "vitest",
          passed: json.numPassedTests ?? 0,
          failed: json.numFailedTests ?? 0,
          skipped: (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0),
          failures: tests
            .filter((t) => t.status === "failed")
            .map((t) => ({ file: t.file, test: t.fullName, message: t.failureMessages.join("\n") })),
          skips: tests
            .filter((t) => t.status === "skipped" || t.status === "pending" || t.status === "todo")
            .map((t) => ({ file: t.file, test: t.fullName, reason: undefined })),
        },
      ];
    });
}

/** Skips without a reason become failures (a test nobody can say why is not run is not done). */
export function judgeSkips(results) {
  for (const result of results) {
    for (const skip of result.skips) {
      if (skip.reason) continue;
      result.failed++;
      result.skipped--;
      result.failures.push({
        file: skip.file,
        test: skip.test,
        message: "skipped without a reason: skip with context.skip(reason) (vitest) or pytest.skip(reason)",
      });
    }
    result.skips = result.skips.filter((skip) => skip.reason);
  }
  return results;
}

/** `{ passed, failed, skipped }` summed over results. */
export function total(results) {
  return results.reduce(
    (sum, r) => ({
      passed: sum.passed + r.passed,
      failed: sum.failed + r.failed,
      skipped: sum.skipped + r.skipped,
    }),
    { passed: 0, failed: 0, skipped: 0 },
  );
}

/** The skips grouped by where and why: `[{ where, reason, count }]`, most frequent first. */
export function skipsByReason(labelled) {
  const groups = new Map();
  for (const { label, results } of labelled)
    for (const result of results)
      for (const skip of result.skips) {
        const key = `${label}\u0000${skip.reason}`;
        const group = groups.get(key) ?? { where: label, reason: skip.reason, count: 0 };
        group.count++;
        groups.set(key, group);
      }
  return [...groups.values()].sort((a, b) => b.count - a.count || a.where.localeCompare(b.where));
}

/** Workspace packages that have a directory: `[{ label, dir }]` for packages/*, apps/*, bench. */
export function workspaceDirs() {
  return ["packages", "apps"]
    .flatMap((group) =>
      existsSync(join(root, group)) ? readdirSync(join(root, group)).map((name) => join(group, name)) : [],
    )
    .concat(existsSync(join(root, "bench")) ? ["bench"] : [])
    .filter((dir) => existsSync(join(root, dir, "package.json")))
    .map((dir) => ({ dir, label: JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")).name }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const labelled = [
    ...workspaceDirs().map(({ dir, label }) => ({
      label,
      results: judgeSkips(readResults(join(root, dir))),
    })),
    { label: "(root steps)", results: judgeSkips(readResults(root)) },
  ].filter((entry) => entry.results.length > 0);
  for (const { label, results } of labelled)
    for (const r of results) {
      const name = `${label} ${r.file}`;
      console.log(
        `${name.padEnd(48)} ${String(r.passed).padStart(5)} passed ${String(r.failed).padStart(3)} failed ${String(r.skipped).padStart(4)} skipped`,
      );
    }
  for (const group of skipsByReason(labelled))
    console.log(`  skipped ${String(group.count).padStart(4)}  ${group.where}: ${group.reason}`);
  const sum = total(labelled.flatMap((entry) => entry.results));
  console.log(`${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped`);
  process.exitCode = sum.failed > 0 || sum.passed === 0 ? 1 : 0;
}
