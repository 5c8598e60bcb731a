// Debian's Chromium for the browser tests, installed by the test run itself on a machine that lacks it: the
// project's CI runs `pnpm test` as root on a fresh Debian machine, where `apt-get install chromium` works (Debian's
// package mirror is reachable; the npm registry carries no browser that installs here). Elsewhere, CHROMIUM_PATH
// names a Chromium or Chrome to use, and without one the tests fail saying how to get it.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

function apt(args: string[]): { ok: boolean; output: string } {
  const result = spawnSync("apt-get", ["-o", "DPkg::Lock::Timeout=600", ...args], {
    encoding: "utf8",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    timeout: 15 * 60_000,
  });
  return {
    ok: result.status === 0,
    output: `${result.stdout ?? ""}${result.stderr ?? ""}${result.error?.message ?? ""}`,
  };
}

/**
 * The path of a Chromium to drive: CHROMIUM_PATH, or Debian's, installed with apt-get first when it is missing and
 * the tests run as root on a Debian-like machine. Throws, saying why, when there is none.
 *
 * @example
 * const executablePath = ensureChromium(); // "/usr/bin/chromium"
 */
export function ensureChromium(): string {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    if (!existsSync(chosen)) throw new Error(`CHROMIUM_PATH=${chosen} does not exist`);
    return chosen;
  }
  const found = CANDIDATES.find((path) => existsSync(path));
  if (found) return found;
  const root = process.getuid?.() === 0;
  if (!root || !existsSync("/usr/bin/apt-get"))
    throw new Error(
      "no Chromium: the browser tests install Debian's (apt-get install chromium) only when they run as root on a machine with apt-get; install it, or set CHROMIUM_PATH to a Chromium or Chrome",
    );
  console.log("[playground] Chromium is missing: apt-get install -y chromium");
  let install = apt(["install", "-y", "chromium"]);
  if (!install.ok) {
    // Package lists can be stale on a fresh machine (a version the mirror no longer holds): refresh and retry.
    const update = apt(["update"]);
    if (!update.ok) throw new Error(`apt-get update failed:\n${update.output.slice(-2000)}`);
    install = apt(["install", "-y", "chromium"]);
  }
  if (!install.ok) throw new Error(`apt-get install chromium failed:\n${install.output.slice(-2000)}`);
  const installed = CANDIDATES.find((path) => existsSync(path));
  if (!installed) throw new Error("apt-get installed chromium, and there is no /usr/bin/chromium");
  return installed;
}

/**
 * Starts Chromium headless with the flags this closed network needs: no background connections (updates, sync,
 * component downloads) that would try to leave the machine, no GPU, no sandbox when running as root.
 *
 * @example
 * const browser = await launchChromium();
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: ensureChromium(),
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-default-apps",
      "--disable-extensions",
      "--metrics-recording-only",
      "--no-default-browser-check",
    ],
  });
}
