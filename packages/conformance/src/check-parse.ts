import type { ConformanceParseResult } from "./implementation.js";
import { jsonEqual, show } from "./json-equal.js";
import type { ConformanceLevel } from "./levels.js";

function jsonValue(text: unknown): unknown {
  try {
    return typeof text === "string" ? JSON.parse(text) : text;
  } catch {
    return text;
  }
}

/**
 * Checks a parse of model text (R10) against `expected`: `toolCalls` (names, ids where given, arguments byte for
 * byte at the full level and by the JSON value they hold at the mapping level), `content`, `reasoning`, and the issue
 * codes (full level). `at` says which keys the run's level includes; `label` starts each message (a stream split).
 *
 * @example
 * checkParse({ content: "Hi" }, { toolCalls: [], content: "Hi", issues: [] }, () => true, "full"); // []
 */
export function checkParse(
  expected: Record<string, unknown>,
  result: ConformanceParseResult | undefined,
  at: (key: string) => boolean,
  level: ConformanceLevel,
  label = "",
): string[] {
  if (typeof result !== "object" || result === null || !Array.isArray(result.toolCalls))
    return [`${label}toolCalls: expected a parse result, got ${show(result)}`];
  const failures: string[] = [];
  if (at("toolCalls")) {
    const want = expected.toolCalls as Array<{ name: string; arguments: string; id?: string }>;
    const view = (call: { name?: unknown; arguments?: unknown; id?: unknown }, i: number) => ({
      name: call.name,
      arguments: level === "full" ? call.arguments : jsonValue(call.arguments),
      ...(want[i]?.id !== undefined ? { id: call.id } : {}),
    });
    const wanted = want.map(view);
    const got = result.toolCalls.map((call, i) =>
      view({ name: call.function?.name, arguments: call.function?.arguments, id: call.id }, i),
    );
    if (!jsonEqual(wanted, got))
      failures.push(`${label}toolCalls: expected ${show(wanted)}, got ${show(got)}`);
  }
  for (const key of ["content", "reasoning"] as const) {
    if (at(key) && !jsonEqual(expected[key], result[key] ?? null))
      failures.push(`${label}${key}: expected ${show(expected[key])}, got ${show(result[key])}`);
  }
  if (at("issues")) {
    const want = (expected.issues as unknown[]).map(String).sort();
    const got = (result.issues ?? []).map((i) => String(i.code)).sort();
    if (!jsonEqual(want, got)) failures.push(`${label}issues: expected ${show(want)}, got ${show(got)}`);
  }
  return failures;
}

/**
 * The splits a parse vector's text is streamed in (R10): every code point alone, two halves, and three splits at
 * points drawn from a generator seeded with the text, so every runner (the Python one's `stream_splits` too) cuts
 * the same way.
 *
 * @example
 * streamSplits("ab😀c")[0]; // ["a", "b", "😀", "c"]
 */
export function streamSplits(text: string): string[][] {
  const points = Array.from(text);
  const half = points.length >> 1;
  const splits: string[][] = [points, [points.slice(0, half).join(""), points.slice(half).join("")]];
  let seed = 2166136261;
  for (const c of text) seed = Math.imul(seed ^ (c.codePointAt(0) ?? 0), 16777619) >>> 0;
  for (let round = 0; round < 3; round++) {
    const chunks: string[] = [];
    let current = "";
    for (const point of points) {
      current += point;
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      if (seed % 4 === 0) {
        chunks.push(current);
        current = "";
      }
    }
    chunks.push(current);
    splits.push(chunks);
  }
  return splits;
}
