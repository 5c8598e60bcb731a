/**
 * A small seeded PRNG (mulberry32), so every corpus is the same on every machine and every run.
 */
export function createRng(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    /** A float in [0, 1). */
    next,
    /** An integer in [min, max]. */
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    /** A float in [min, max). */
    float: (min, max) => min + next() * (max - min),
    /** One element of a non-empty array. */
    pick: (items) => items[Math.floor(next() * items.length)],
    /** True with probability p. */
    chance: (p) => next() < p,
  };
}
