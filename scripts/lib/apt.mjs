// Debian packages a test step needs, installed with apt-get when they are missing (as Chromium and Dask are): one
// attempt, then a refresh of the package lists and a second one, since the lists can be missing on a fresh machine.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

function apt(args) {
  const result = spawnSync("apt-get", ["-o", "DPkg::Lock::Timeout=600", ...args], {
    encoding: "utf8",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 10 * 60_000,
  });
  return {
    ok: result.status === 0,
    output: `${result.stdout ?? ""}${result.stderr ?? ""}${result.error?.message ?? ""}`,
  };
}

/** Whether this process can install Debian packages (root, on a machine with apt-get). */
export const canInstall = () => process.getuid?.() === 0 && existsSync("/usr/bin/apt-get");

/**
 * Installs Debian packages without their recommendations. Resolves to `{ ok: true }` or `{ ok: false, reason }`.
 *
 * @example
 * const result = aptInstall(["python3-distributed"]);
 */
export function aptInstall(packages) {
  let install = apt(["install", "-y", "--no-install-recommends", ...packages]);
  if (!install.ok) {
    const update = apt(["update"]);
    if (!update.ok) return { ok: false, reason: `apt-get update failed:\n${update.output.slice(-2000)}` };
    install = apt(["install", "-y", "--no-install-recommends", ...packages]);
  }
  return install.ok
    ? { ok: true }
    : { ok: false, reason: `apt-get install ${packages.join(" ")} failed:\n${install.output.slice(-2000)}` };
}
