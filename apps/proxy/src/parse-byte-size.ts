const UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  kb: 1024,
  k: 1024,
  mb: 1024 ** 2,
  m: 1024 ** 2,
  gb: 1024 ** 3,
  g: 1024 ** 3,
};

/**
 * Reads a size such as `10mb`, `512kb` or `1048576` (bytes). Units are binary (`1mb` is 1 MiB).
 *
 * @example
 * parseByteSize("10mb"); // { ok: true, value: 10485760 }
 * parseByteSize("ten"); // { ok: false, error: "…" }
 */
export function parseByteSize(text: string): { ok: true; value: number } | { ok: false; error: string } {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = UNITS[(match?.[2] ?? "").toLowerCase()];
  if (match === null || unit === undefined)
    return { ok: false, error: `not a size: ${JSON.stringify(text)} (use bytes, or kb, mb, gb)` };
  const value = Math.floor(Number(match[1]) * unit);
  if (!Number.isSafeInteger(value) || value <= 0)
    return { ok: false, error: `not a positive size: ${JSON.stringify(text)}` };
  return { ok: true, value };
}
