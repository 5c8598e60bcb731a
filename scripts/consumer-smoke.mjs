#!/usr/bin/env node
// A downstream project outside the workspace: installs the packed tarballs of @toolcall/core and
// @toolcall/conformance with npm (vitest from the registry, as a consumer would), then runs the conformance suite
// against core through vitest and through the framework-neutral command line, and loads both packages from
// CommonJS. Proves the published shape, not the workspace's.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const scratch = mkdtempSync(join(tmpdir(), "toolcall-consumer-"));
const vitestVersion = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies.vitest;
const run = (command, args, options = {}) =>
  execFileSync(command, args, {
    cwd: scratch,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    ...options,
  });

try {
  const tarballs = {};
  for (const name of ["core", "conformance"]) {
    run(join(root, "node_modules", ".bin", "pnpm"), ["pack", "--pack-destination", scratch], {
      cwd: join(root, "packages", name),
    });
    tarballs[name] = readdirSync(scratch).find(
      (f) => f.startsWith(`toolcall-${name}-`) && f.endsWith(".tgz"),
    );
  }
  writeFileSync(
    join(scratch, "package.json"),
    JSON.stringify({
      name: "toolcall-consumer",
      private: true,
      type: "module",
      dependencies: { "@toolcall/core": `file:./${tarballs.core}` },
      devDependencies: { "@toolcall/conformance": `file:./${tarballs.conformance}`, vitest: vitestVersion },
    }),
  );
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"]);

  writeFileSync(
    join(scratch, "conformance.test.js"),
    [
      'import { describeConformance } from "@toolcall/conformance/vitest";',
      'import { coreImplementation } from "@toolcall/core/conformance";',
      "describeConformance({ implementation: coreImplementation });",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(scratch, "implementation.mjs"),
    'export { coreImplementation as implementation } from "@toolcall/core/conformance";\n',
  );
  writeFileSync(
    join(scratch, "require.cjs"),
    [
      'const core = require("@toolcall/core");',
      'const { loadVectors } = require("@toolcall/conformance");',
      'if (core.decodeArguments("42").status !== "non_object") throw new Error("core from CommonJS");',
      'if (loadVectors().length === 0) throw new Error("vectors from CommonJS");',
      "",
    ].join("\n"),
  );

  run(join(scratch, "node_modules", ".bin", "vitest"), [
    "run",
    "--reporter=json",
    "--outputFile=report.json",
  ]);
  const report = JSON.parse(readFileSync(join(scratch, "report.json"), "utf8"));
  if (report.numFailedTests > 0 || report.numPassedTests < 100) {
    throw new Error(
      `vitest in the consumer: ${report.numPassedTests} passed, ${report.numFailedTests} failed`,
    );
  }
  const cli = run(join(scratch, "node_modules", ".bin", "toolcall-conformance"), [
    "run",
    "--implementation",
    "implementation.mjs",
  ]);
  const line = cli.trim().split("\n").at(-1);
  if (!/^\d+ passed, 0 failed/.test(line))
    throw new Error(`toolcall-conformance run in the consumer: ${line}`);
  run("node", ["require.cjs"]);
  console.log(`consumer smoke test: ok (vitest ${report.numPassedTests} passed; command line: ${line})`);
} catch (error) {
  console.error(
    `consumer smoke test failed in ${scratch}:\n${error.stdout ?? ""}${error.stderr ?? ""}${error.message}`,
  );
  process.exitCode = 1;
} finally {
  if (process.exitCode !== 1) rmSync(scratch, { recursive: true, force: true });
}
