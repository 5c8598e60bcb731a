/** What all of `markers` start with ("" for none). */
export function commonPrefix(markers: readonly string[]): string {
  let prefix = markers[0] ?? "";
  for (const marker of markers) {
    let n = 0;
    while (n < prefix.length && n < marker.length && prefix[n] === marker[n]) n++;
    prefix = prefix.slice(0, n);
  }
  return prefix;
}

/**
 * A set of markers searched for together. The search runs the engine's own `indexOf` on what all markers start
 * with (`<`, `<|`, `[`), then compares the markers where it lands, so text with none of them costs one native scan.
 */
export class MarkerSet {
  readonly markers: readonly string[];
  readonly maxLength: number;
  readonly #needle: string;
  /**
   * The markers' first characters as one native search (`/[\n<]/g`) when they share no prefix. One `indexOf` per
   * first character would rescan the text past every hit of another one (no `\n` in a text full of `<`: a scan to
   * the end at each `<`, quadratic); the class stops at the nearest of them, so each character is examined once.
   */
  readonly #firsts: RegExp | null;

  static readonly #shared = new Map<string, MarkerSet>();

  /**
   * The set of these markers, built once and shared (a parser reads a set's results right after each call, so one
   * instance serves every parse and stream). For sets made per call or per text; a set of constants can be a
   * constant.
   */
  static of(markers: readonly string[]): MarkerSet {
    const key = markers.join("\u0000");
    let set = MarkerSet.#shared.get(key);
    if (set === undefined) {
      set = new MarkerSet(markers);
      MarkerSet.#shared.set(key, set);
    }
    return set;
  }

  constructor(markers: readonly string[]) {
    // Longest first: where two markers match at one place, the longer one wins.
    this.markers = [...markers].sort((a, b) => b.length - a.length);
    this.maxLength = Math.max(0, ...markers.map((m) => m.length));
    this.#needle = commonPrefix(markers);
    const firsts = [...new Set(markers.map((m) => m[0] ?? ""))].filter((c) => c !== "");
    this.#firsts =
      firsts.length === 0
        ? null
        : new RegExp(
            `[${firsts.map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}]`,
            "g",
          );
  }

  /** The next place a marker may start; adds what the native search examined to {@link scanned}. */
  #next(text: string, from: number): number {
    let at = -1;
    if (this.#needle !== "") at = text.indexOf(this.#needle, from);
    else if (this.#firsts !== null) {
      this.#firsts.lastIndex = from;
      const found = this.#firsts.exec(text);
      if (found !== null) at = found.index;
    }
    this.scanned += Math.max(0, (at === -1 ? text.length : at + 1) - from);
    return at;
  }

  /** After {@link find}: where it stopped (-1: nowhere), and the whole marker found there (`null`: the text ends inside one). */
  at = -1;
  marker: string | null = null;
  /** After {@link matchAt}: the text ends inside a longer marker that may still arrive. */
  partial = false;
  /** After {@link find}: how many characters it examined (each once, by the native search), for the work count. */
  scanned = 0;

  /**
   * The marker that starts at `at` (in {@link marker}; `null` when none does), or {@link partial} when the text ends
   * inside a longer one and `final` is false. Results land on the set itself: a parser's steps read them at once,
   * so no object is made per call.
   */
  matchAt(text: string, at: number, final: boolean): string | null {
    const rest = text.length - at;
    this.partial = false;
    for (const marker of this.markers) {
      if (marker.length <= rest) {
        if (text.startsWith(marker, at)) {
          this.marker = marker;
          return marker;
        }
      } else if (!final && marker.startsWith(text.slice(at))) {
        // A longer marker may still arrive: a shorter one that matches now must wait for it.
        this.partial = true;
        this.marker = null;
        return null;
      }
    }
    this.marker = null;
    return null;
  }

  /**
   * The first place at or after `from` where a marker starts (in {@link at} and {@link marker}), or where the text
   * ends inside one (unless `final`: {@link marker} is then `null` and {@link at} is that place), or -1. Linear: each
   * character is looked at once by the native search, and again only where a marker could start.
   */
  find(text: string, from: number, final: boolean): number {
    let i = from;
    // What the native searches examine, counted where they run: the work count is the work done.
    this.scanned = 0;
    for (;;) {
      const at = this.#next(text, i);
      if (at === -1) break;
      const marker = this.matchAt(text, at, final);
      if (marker !== null || this.partial) {
        this.at = at;
        return at;
      }
      i = at + 1;
    }
    this.marker = null;
    if (!final) {
      // The text may end inside the shared prefix itself (`<` of `<|`), before the native search could see it: a
      // longer tail starts with the whole prefix, which the search found. Compared in place, once per delta.
      const needle = this.#needle;
      const longest = Math.min(needle.length - 1, text.length - from);
      for (let size = longest; size > 0; size--) {
        const start = text.length - size;
        let j = 0;
        while (j < size && text.charCodeAt(start + j) === needle.charCodeAt(j)) j++;
        if (j === size) {
          this.at = start;
          return start;
        }
      }
    }
    this.at = -1;
    return -1;
  }
}
