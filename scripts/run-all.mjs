#!/usr/bin/env node
// `pnpm test`: every step, always, then one summary. A failing step never stops the ones after it: the build, each
// package's tests (turbo, --continue), lint, file lengths, type checks, the release into a throwaway registry, the
// consumer smoke test and the doc tests all run, and the summary lists each with its result, counts and time, every
// skipped test by its reason, every failure, and closes with `N passed, N failed, N skipped`. The exit code is 1 if
// anything failed. One registry (Verdaccio) serves the release, the consumer and the doc tests.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { startRegistry } from "./lib/registry.mjs";
import { root } from "./lib/results.mjs";
import { judgeSkips, readResults, skipsByReason, total, workspaceDirs } from "./summarize-tests.mjs";

const env = { ...process.env, PATH: `${join(root, "node_modules", ".bin")}${delimiter}${process.env.PATH}` };
const steps = [];

/** Runs one command with the output streamed; resolves to `{ code, seconds }`, never rejects. */
function run(command, args, extraEnv = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit", env: { ...env, ...extraEnv } });
    child.once("error", (error) => {
      console.error(`${command}: ${error.message}`);
      resolve({ code: 127, seconds: (performance.now() - started) / 1000 });
    });
    child.once("exit", (code, signal) =>
      resolve({ code: code ?? (signal ? 128 : 1), seconds: (performance.now() - started) / 1000 }),
    );
  });
}

const banner = (title) => console.log(`\n━━━ ${title} ${"━".repeat(Math.max(0, 72 - title.length))}`);

/** A step judged by its exit code alone (one check: it passed or it failed). */
async function simpleStep(name, command, args) {
  banner(name);
  const { code, seconds } = await run(command, args);
  const ok = code === 0;
  steps.push({
    name,
    seconds,
    results: [
      {
        passed: ok ? 1 : 0,
        failed: ok ? 0 : 1,
        skipped: 0,
        skips: [],
        failures: ok
          ? []
          : [{ file: "", test: name, message: `${command} ${args.join(" ")} exited with ${code}` }],
      },
    ],
    note: ok ? "" : `exit ${code}`,
  });
}

/** A step that writes `.test-results/<name>.json` at the root (scripts/lib/results.mjs). */
async function resultsStep(name, script, extraEnv) {
  banner(name);
  const file = join(root, ".test-results", `${name}.json`);
  const { code, seconds } = await run(process.execPath, [join(root, "scripts", script)], extraEnv);
  const results = existsSync(file) ? judgeSkips([JSON.parse(readFileSync(file, "utf8"))]) : [];
  if (code !== 0 && total(results).failed === 0)
    results.push({
      passed: 0,
      failed: 1,
      skipped: 0,
      skips: [],
      failures: [
        { file: script, test: name, message: `exited with ${code} without a failed check recorded` },
      ],
    });
  steps.push({ name, seconds, results, note: code === 0 ? "" : `exit ${code}` });
}

// Results of an earlier run must never pass for this one's.
for (const dir of [".", ...workspaceDirs().map((w) => w.dir)])
  rmSync(join(root, dir, ".test-results"), { recursive: true, force: true });
const runsDir = join(root, ".turbo", "runs");
const begun = Date.now();

await simpleStep("build", "turbo", ["run", "build", "--continue=dependencies-successful"]);
// The browser the playground's tests drive: Debian's Chromium, installed here when missing (as root, apt-get).
await simpleStep("chromium", process.execPath, [join(root, "scripts", "ensure-chromium.mjs")]);
// The cluster engine the command line's sharding test runs on: Debian's Dask distributed, installed here when missing;
// where apt-get cannot run, the step says so and the test is skipped with those words.
await simpleStep("dask", process.execPath, [join(root, "scripts", "ensure-dask.mjs")]);

banner("tests (each package, one at a time)");
const tests = await run("turbo", [
  "run",
  "test",
  "--continue=dependencies-successful",
  "--concurrency=1",
  "--summarize",
]);
const summaryFile = existsSync(runsDir)
  ? readdirSync(runsDir)
      .map((f) => join(runsDir, f))
      .filter((f) => statSync(f).mtimeMs >= begun)
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
  : undefined;
const tasks = summaryFile ? JSON.parse(readFileSync(summaryFile, "utf8")).tasks : [];
for (const { dir, label } of workspaceDirs()) {
  const manifest = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
  if (!manifest.scripts?.test) continue;
  const task = tasks.find((t) => t.package === label && t.task === "test");
  const execution = task?.execution;
  const results = judgeSkips(readResults(join(root, dir)));
  const exitCode = execution?.exitCode;
  const failures = total(results).failed;
  if (exitCode !== 0 && failures === 0)
    results.push({
      passed: 0,
      failed: 1,
      skipped: 0,
      skips: [],
      failures: [
        {
          file: dir,
          test: `${label} test`,
          message: execution
            ? `the test script exited with ${exitCode ?? "an error"} and recorded no failed test (see its output above)`
            : "the tests did not run (a build they depend on failed?)",
        },
      ],
    });
  if (exitCode === 0 && results.length === 0)
    results.push({
      passed: 0,
      failed: 1,
      skipped: 0,
      skips: [],
      failures: [
        {
          file: dir,
          test: `${label} test`,
          message: "no results file: the test script must write .test-results",
        },
      ],
    });
  steps.push({
    name: `test ${label}`,
    seconds: execution ? (execution.endTime - execution.startTime) / 1000 : 0,
    results,
    note: exitCode === 0 ? "" : execution ? `exit ${exitCode}` : "not run",
  });
}
if (tasks.length === 0)
  steps.push({
    name: "tests",
    seconds: tests.seconds,
    results: [
      {
        passed: 0,
        failed: 1,
        skipped: 0,
        skips: [],
        failures: [{ file: "", test: "turbo run test", message: "no run summary" }],
      },
    ],
    note: `exit ${tests.code}`,
  });

await simpleStep("lint", "biome", ["check", "."]);
await simpleStep("file lengths", "node", ["scripts/check-file-lengths.mjs"]);
await simpleStep("import cycles", "node", ["scripts/check-import-cycles.mjs"]);
await simpleStep("api reference", "node", ["scripts/api-reference.mjs", "--check"]);
await simpleStep("typecheck", "turbo", ["run", "typecheck", "--continue=dependencies-successful"]);

banner("registry");
let registry;
try {
  registry = await startRegistry();
  console.log(`Verdaccio on ${registry.url}`);
} catch (error) {
  console.error(`the registry did not start: ${error.message}`);
}
const registryEnv = registry
  ? { TOOLCALL_REGISTRY: registry.url, TOOLCALL_REGISTRY_TOKEN: registry.token }
  : {};
try {
  await resultsStep("release", "release.mjs", registryEnv);
  await resultsStep("consumer", "consumer-smoke.mjs", registryEnv);
  if (existsSync(join(root, "scripts", "doc-tests.mjs")))
    await resultsStep("docs", "doc-tests.mjs", registryEnv);
} finally {
  await registry?.close();
}

// The summary.
banner("summary");
const cell = (value, width) => String(value).padStart(width);
const seconds = (s) =>
  s >= 60 ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, "0")}s` : `${s.toFixed(1)}s`;
console.log(
  `${"step".padEnd(34)} ${"result".padEnd(6)} ${cell("passed", 7)} ${cell("failed", 7)} ${cell("skipped", 7)} ${cell("time", 8)}`,
);
for (const step of steps) {
  const sum = total(step.results);
  const result = sum.failed > 0 ? "FAIL" : "pass";
  console.log(
    `${step.name.padEnd(34)} ${result.padEnd(6)} ${cell(sum.passed, 7)} ${cell(sum.failed, 7)} ${cell(sum.skipped, 7)} ${cell(seconds(step.seconds), 8)}${step.note ? `  ${step.note}` : ""}`,
  );
}
const groups = skipsByReason(
  steps.map((step) => ({ label: step.name.replace(/^test /, ""), results: step.results })),
);
if (groups.length > 0) {
  console.log("\nskipped, by reason:");
  for (const group of groups) console.log(`${cell(group.count, 5)}  ${group.where}: ${group.reason}`);
}
const failures = steps.flatMap((step) =>
  step.results.flatMap((r) => r.failures.map((f) => ({ step: step.name, ...f }))),
);
if (failures.length > 0) {
  console.log("\nfailed:");
  for (const f of failures.slice(0, 50)) {
    const message = (f.message ?? "").split("\n").find((line) => line.trim() !== "") ?? "";
    console.log(`  ${f.step}: ${f.file ? `${f.file} > ` : ""}${f.test}\n      ${message.slice(0, 300)}`);
  }
  if (failures.length > 50) console.log(`  … and ${failures.length - 50} more`);
}
const sum = total(steps.flatMap((step) => step.results));
console.log(`\ntotal time ${seconds((Date.now() - begun) / 1000)}`);
// Conformance vectors of an operation or a repair a package does not implement are not applicable to it: said apart
// from the rest (the runner's own wording, TypeScript and Python).
const NOT_IMPLEMENTED = [
  /^operation \S+ not implemented$/,
  /^the implementation has no \S+ \(operation \S+\)$/,
  /^repairs .+ not provided by the implementation$/,
  /^the vector asks for repairs \[.*\] and the implementation has no REPAIRS$/,
];
const notApplicable = groups
  .filter((group) => NOT_IMPLEMENTED.some((pattern) => pattern.test(group.reason)))
  .reduce((count, group) => count + group.count, 0);
console.log(
  `${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped` +
    (notApplicable > 0
      ? ` (${notApplicable} of them conformance vectors of operations or repairs the package does not implement; ${sum.skipped - notApplicable} others, each with its reason above)`
      : ""),
);
process.exitCode = sum.failed > 0 || sum.passed === 0 ? 1 : 0;
