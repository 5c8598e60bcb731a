#!/usr/bin/env node
// `pnpm start [-- COMMAND …]`: runs the built command line from the directory the user typed the command in. pnpm runs
// a root script from the repository root and says where it was called from in INIT_CWD; without this, `pnpm start --
// check session.json` would look for session.json at the root instead of beside the user.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { root } from "./lib/results.mjs";

// biome-ignore lint/suspicious/noUndeclaredEnvVars: set by pnpm for every script it runs, not by turbo
const cwd = process.env.INIT_CWD || process.cwd();
const child = spawnSync(
  process.execPath,
  [join(root, "apps", "cli", "dist", "cli.js"), ...process.argv.slice(2)],
  {
    cwd,
    stdio: "inherit",
  },
);
process.exitCode = child.status ?? 1;
