/**
 * JSON equality: objects by own enumerable keys (order ignored), arrays by position, numbers by value. Used to tell
 * whether LangChain's parsed `args` were derived from a wire text, so the wire bytes can be kept.
 *
 * @example
 * jsonEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] }); // true
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key]));
}
