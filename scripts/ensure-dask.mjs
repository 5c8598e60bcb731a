#!/usr/bin/env node
// Dask distributed, the cluster engine the command line's sharding test runs on: Debian's python3-distributed for
// Debian's Python (/usr/bin/python3), installed here when it is missing. `pnpm test` runs this as its own step
// before the tests. Where it cannot be installed (not root, no apt-get), it says why and exits 0: the sharding test
// is then skipped with these words (a machine without apt is not a failure of the project).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { aptInstall, canInstall } from "./lib/apt.mjs";

export const DASK_PYTHON = "/usr/bin/python3";

/** The installed version of Dask distributed for Debian's Python, or `undefined`. */
export function daskVersion() {
  if (!existsSync(DASK_PYTHON)) return undefined;
  const probe = spawnSync(DASK_PYTHON, ["-c", "import distributed; print(distributed.__version__)"], {
    encoding: "utf8",
  });
  return probe.status === 0 ? probe.stdout.trim() : undefined;
}

/**
 * Dask distributed for /usr/bin/python3: `{ ok: true, python, version, installed }`, or `{ ok: false, reason,
 * installable }` (`installable` false when this machine cannot install it at all).
 */
export function ensureDask() {
  const found = daskVersion();
  if (found) return { ok: true, python: DASK_PYTHON, version: found, installed: false };
  if (!canInstall() || !existsSync(DASK_PYTHON))
    return {
      ok: false,
      installable: false,
      reason:
        "Dask distributed is missing and cannot be installed from here (apt-get install python3-distributed needs root on a Debian-like machine with /usr/bin/python3)",
    };
  console.log("Dask distributed is missing: apt-get install -y python3-distributed");
  const install = aptInstall(["python3-distributed"]);
  if (!install.ok) return { ...install, installable: true };
  const version = daskVersion();
  return version
    ? { ok: true, python: DASK_PYTHON, version, installed: true }
    : {
        ok: false,
        installable: true,
        reason: "apt-get installed python3-distributed, and Python cannot import it",
      };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = ensureDask();
  if (result.ok)
    console.log(`${result.installed ? "installed" : "found"} Dask distributed ${result.version}`);
  else {
    console.error(result.reason);
    process.exitCode = result.installable ? 1 : 0;
  }
}
