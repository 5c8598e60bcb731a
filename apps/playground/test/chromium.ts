// Debian's Chromium for the browser tests. `pnpm test` installs it when it is missing (scripts/ensure-chromium.mjs,
// its own step, as root on a Debian machine: the npm registry carries no browser that installs here); a run of this
// package's tests alone does the same. CHROMIUM_PATH names another Chromium or Chrome. Without one the tests fail,
// saying why.
import { type Browser, chromium } from "playwright-core";
import { ensureChromium as ensure } from "../../../scripts/ensure-chromium.mjs";

/**
 * The path of a Chromium to drive; throws, saying why, when there is none and none can be installed.
 *
 * @example
 * const executablePath = ensureChromium(); // "/usr/bin/chromium"
 */
export function ensureChromium(): string {
  const result = ensure();
  if (!result.ok) throw new Error(`the browser tests need Chromium: ${result.reason}`);
  return result.path;
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
      // No name but 127.0.0.1's resolves: the page has no network beyond the local server.
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    ],
  });
}
