/**
 * Structural equality for message data: plain objects by own enumerable string keys (order ignored), arrays by
 * position, primitives with `Object.is`, any other object (a `URL`, a `Uint8Array`) by identity. Never throws: a
 * value that cannot be read compares unequal.
 *
 * @example
 * sameValue({ a: [1, { b: null }] }, { a: [1, { b: null }] }); // true
 */
export function sameValue(a: unknown, b: unknown): boolean {
  try {
    return same(a, b, 0);
  } catch {
    return false;
  }
}

const MAX_DEPTH = 2000;

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function same(a: unknown, b: unknown, depth: number): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (depth > MAX_DEPTH) return false;
  const arrays = Array.isArray(a);
  if (arrays !== Array.isArray(b)) return false;
  if (arrays) {
    const left = a as unknown[];
    const right = b as unknown[];
    if (left.length !== right.length) return false;
    for (let i = 0; i < left.length; i++) if (!same(left[i], right[i], depth + 1)) return false;
    return true;
  }
  if (!isPlain(a) || !isPlain(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(right, key) || !same(left[key], right[key], depth + 1)) return false;
  }
  return true;
}
