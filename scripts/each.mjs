#!/usr/bin/env node
// Runs each argument as a shell command, one after another, whatever the earlier ones returned, and fails if any
// failed: a package whose tests have several runners still gets every runner's results when the first one fails.
import { spawnSync } from "node:child_process";

let failed = 0;
for (const command of process.argv.slice(2)) {
  const { status, signal } = spawnSync(command, { shell: true, stdio: "inherit" });
  if (status !== 0) {
    failed++;
    console.error(`failed (${signal ?? `exit ${status}`}): ${command}`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
