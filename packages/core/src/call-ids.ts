/**
 * The call ids a history has used so far, and fresh ones for ids used again. A fresh id for `base` is
 * `${base}_${n}` with the smallest `n ≥ 2` not used yet; the next `n` to try is kept per base, so an id reused in
 * every turn of a long history costs one probe per reuse, not one per earlier reuse (a history of 8 000 turns that
 * all reuse `call_0` took 32 million probes before). Each used id is skipped at most once: `probes` counts them,
 * for a test that counts work instead of reading a clock.
 *
 * @example
 * const ids = new CallIds();
 * ids.add("call_0");
 * ids.fresh("call_0"); // "call_0_2"
 * ids.fresh("call_0"); // "call_0_3"
 */
export class CallIds {
  readonly #used = new Set<string>();
  readonly #next = new Map<string, number>();
  /** How many times a candidate id was looked up. */
  probes = 0;

  /** Whether `id` was used. */
  has(id: string): boolean {
    this.probes++;
    return this.#used.has(id);
  }

  /** Records `id` as used. */
  add(id: string): void {
    this.#used.add(id);
  }

  /**
   * Records `id` as used and tells whether it was free: one lookup where `has` then `add` make two (a history's
   * sanitize claims every call's id once).
   */
  claim(id: string): boolean {
    this.probes++;
    const size = this.#used.size;
    this.#used.add(id);
    return this.#used.size !== size;
  }

  /** A fresh id made from `base` (`${base}_${n}`, smallest unused `n ≥ 2`), recorded as used. */
  fresh(base: string): string {
    let n = this.#next.get(base) ?? 2;
    // Every n below the one kept was given out or found used, and used ids stay used: none can be free again.
    while (this.has(`${base}_${n}`)) n++;
    this.#next.set(base, n + 1);
    const id = `${base}_${n}`;
    this.#used.add(id);
    return id;
  }
}
