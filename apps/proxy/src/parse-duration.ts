const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Reads a duration such as `250ms`, `30s`, `10m` or `1500` (milliseconds). `0` means "no limit".
 *
 * @example
 * parseDuration("30s"); // { ok: true, value: 30000 }
 */
export function parseDuration(text: string): { ok: true; value: number } | { ok: false; error: string } {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(text);
  if (match === null)
    return { ok: false, error: `not a duration: ${JSON.stringify(text)} (use ms, s, m or h)` };
  const unit = UNITS[(match[2] ?? "ms").toLowerCase()] as number;
  const value = Math.round(Number(match[1]) * unit);
  if (!Number.isSafeInteger(value)) return { ok: false, error: `duration out of range: ${text}` };
  return { ok: true, value };
}
