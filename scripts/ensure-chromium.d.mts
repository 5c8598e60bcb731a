/** Where a Chromium is (CHROMIUM_PATH, or Debian's), or `undefined`. */
export function findChromium(): string | undefined;
/** A Chromium's path, installing Debian's with apt-get (as root) when there is none; or why there is none. */
export function ensureChromium():
  | { ok: true; path: string; installed: boolean }
  | { ok: false; reason: string };
