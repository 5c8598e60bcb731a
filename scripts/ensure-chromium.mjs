#!/usr/bin/env node
// The browser the playground's tests drive: Debian's Chromium (`apt-get install chromium`), installed here when it is
// missing. `pnpm test` runs this as its own step before the tests; run alone, it installs and prints the path.
// CHROMIUM_PATH names another Chromium or Chrome. Without root or apt-get it cannot install, and says so; the
// browser tests then fail with the same words (a missing browser is never a pass).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { aptInstall, canInstall } from "./lib/apt.mjs";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

/** Where a Chromium is, or `undefined`. */
export function findChromium() {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) return existsSync(chosen) ? chosen : undefined;
  return CANDIDATES.find((path) => existsSync(path));
}

/**
 * The path of a Chromium: CHROMIUM_PATH, Debian's, or Debian's installed now with apt-get (as root). Resolves to
 * `{ ok: true, path, installed }` or `{ ok: false, reason }`.
 */
export function ensureChromium() {
  if (process.env.CHROMIUM_PATH) {
    const path = findChromium();
    return path
      ? { ok: true, path, installed: false }
      : { ok: false, reason: `CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist` };
  }
  const found = findChromium();
  if (found) return { ok: true, path: found, installed: false };
  if (!canInstall())
    return {
      ok: false,
      reason:
        "no Chromium, and it cannot be installed from here (apt-get install chromium needs root on a Debian-like machine): install Debian's chromium, or set CHROMIUM_PATH to a Chromium or Chrome",
    };
  console.log("Chromium is missing: apt-get install -y chromium");
  const install = aptInstall(["chromium"]);
  if (!install.ok) return install;
  const path = findChromium();
  return path
    ? { ok: true, path, installed: true }
    : { ok: false, reason: "apt-get installed chromium, and there is no /usr/bin/chromium" };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = ensureChromium();
  if (result.ok) {
    const version = spawnSync(result.path, ["--version"], { encoding: "utf8" }).stdout?.trim();
    console.log(
      `${result.installed ? "installed" : "found"} ${result.path}${version ? ` (${version})` : ""}`,
    );
  } else {
    console.error(result.reason);
    process.exitCode = 1;
  }
}
