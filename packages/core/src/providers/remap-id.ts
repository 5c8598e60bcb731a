import { compiled, idAccepted } from "./check-calls.js";
import type { ConstraintParams } from "./provider-profile.js";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function fnv1a32(text: string, seed: number): number {
  let hash = seed;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function base62(value: number, width: number): string {
  let out = "";
  for (let i = 0; i < width; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/**
 * A short, stable hash of a text: two 32-bit FNV-1a hashes over its UTF-16 code units (two seeds), in base 62 (12
 * letters and digits). The same id always hashes the same, so a remapped call and its results agree without any
 * shared state, and the work is linear in the id.
 *
 * @example
 * stableHash("call_abc"); // always the same 12 letters and digits
 */
export function stableHash(text: string): string {
  return base62(fnv1a32(text, 0x811c9dc5), 6) + base62(fnv1a32(text, 0x050c5d1f), 6);
}

/** Each character the pattern refuses on its own becomes `_` (for patterns that are one character class, repeated). */
function replaceRefused(id: string, pattern: string | undefined): string {
  if (pattern === undefined) return id;
  const regex = compiled(pattern);
  let out = "";
  for (const char of id) out += regex.test(char) ? char : "_";
  return out;
}

/** Most attempts a collision loop makes: past it, a custom profile whose pattern no hash can meet keeps the id. */
const MAX_ATTEMPTS = 1000;

/**
 * A new id for a call the provider refuses, deterministic for the history, unique among `used`, and accepted by
 * the constraint's pattern and length (`undefined` when no candidate is: a custom pattern that nothing meets).
 *
 * @example
 * remapId("call_PTLP8xhu3uwZk4l3nlnrrJha", { pattern: "^[a-zA-Z0-9]{9}$", idStyle: "alnum9" }, new Set());
 * // "3nlnrrJha"
 */
export function remapId(id: string, params: ConstraintParams, used: ReadonlySet<string>): string | undefined {
  const ok = (candidate: string) => !used.has(candidate) && idAccepted(candidate, params);
  if (params.idStyle === "alnum9") {
    const letters = id.replace(/[^a-zA-Z0-9]/g, "");
    const plain = letters.length >= 9 ? letters.slice(-9) : letters.padStart(9, "0");
    if (ok(plain)) return plain;
    for (let n = 0; n < MAX_ATTEMPTS; n++) {
      const hashed = stableHash(`${id}#${n}`).slice(-9);
      if (ok(hashed)) return hashed;
    }
    return undefined;
  }
  const base = params.idStyle === "shorten" ? id : replaceRefused(id, params.pattern);
  const limit = params.maxLength;
  const cut = (text: string, suffix: string) =>
    limit === undefined
      ? `${text}_${suffix}`
      : `${text.slice(0, Math.max(limit - suffix.length - 1, 0))}_${suffix}`;
  const first = limit !== undefined && base.length > limit ? cut(base, stableHash(id).slice(0, 8)) : base;
  if (ok(first)) return first;
  for (let n = 0; n < MAX_ATTEMPTS; n++) {
    const candidate = cut(base, stableHash(`${id}#${n}`).slice(0, 8));
    if (ok(candidate)) return candidate;
  }
  return undefined;
}

/**
 * A new function name the provider accepts: each character its pattern refuses becomes `_`, cut to its length.
 *
 * @example
 * remapName("web.search", { pattern: "^[a-zA-Z0-9_-]+$", maxLength: 64 }); // "web_search"
 */
export function remapName(name: string, params: ConstraintParams): string {
  const replaced = replaceRefused(name, params.pattern);
  return params.maxLength !== undefined ? replaced.slice(0, params.maxLength) : replaced;
}
