import { order } from "./operators.js";

/**
 * Python's `sorted(items, key=key, reverse=reverse)`: keys computed first, in order; a stable sort that only asks
 * "is a less than b" (V8's `Array.prototype.sort` is a port of CPython's timsort, so the comparisons, and the
 * first one to raise for unorderable values, are the ones Python makes); `reverse` reverses, sorts and reverses
 * back, as CPython does, so equal items keep their order.
 *
 * @example
 * pythonSorted([3, 1, 2], null, false); // [1, 2, 3]
 */
export function pythonSorted<T>(
  items: readonly T[],
  key: ((item: T) => unknown) | null,
  reverse: boolean,
): T[] {
  const keyed = items.map((item) => ({ item, key: key === null ? item : key(item) }));
  if (reverse) keyed.reverse();
  keyed.sort((a, b) => {
    const c = order(a.key, b.key);
    return c < 0 ? -1 : c > 0 ? 1 : 0;
  });
  if (reverse) keyed.reverse();
  return keyed.map((k) => k.item);
}
