import type { WorkCounter } from "@toolcall/core";

/** Where {@link MarkerSet.find} stopped: a whole marker, a marker the text ends inside, or nothing. */
export type MarkerHit =
  | { at: number; marker: string }
  | { at: number; marker: null } // `text` ends inside a marker that starts at `at`
  | { at: -1; marker: null };

const NONE: MarkerHit = { at: -1, marker: null };

function commonPrefix(markers: readonly string[]): string {
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
  readonly #firsts: readonly string[];

  constructor(markers: readonly string[]) {
    // Longest first: where two markers match at one place, the longer one wins.
    this.markers = [...markers].sort((a, b) => b.length - a.length);
    this.maxLength = Math.max(0, ...markers.map((m) => m.length));
    this.#needle = commonPrefix(markers);
    this.#firsts = [...new Set(markers.map((m) => m[0] ?? ""))].filter((c) => c !== "");
  }

  #next(text: string, from: number): number {
    if (this.#needle !== "") return text.indexOf(this.#needle, from);
    let best = -1;
    for (const first of this.#firsts) {
      const i = text.indexOf(first, from);
      if (i !== -1 && (best === -1 || i < best)) best = i;
    }
    return best;
  }

  /** The marker that starts at `at`; `null` with `partial` when the text ends inside a longer one (and `final` is false). */
  matchAt(text: string, at: number, final: boolean): { marker: string | null; partial: boolean } {
    const rest = text.length - at;
    for (const marker of this.markers) {
      if (marker.length <= rest) {
        if (text.startsWith(marker, at)) return { marker, partial: false };
      } else if (!final && marker.startsWith(text.slice(at))) {
        // A longer marker may still arrive: a shorter one that matches now must wait for it.
        return { marker: null, partial: true };
      }
    }
    return { marker: null, partial: false };
  }

  /**
   * The first place at or after `from` where a marker starts, or where the text ends inside one (unless `final`).
   * Linear: each character is looked at once by the native search, and again only where a marker could start.
   */
  find(text: string, from: number, final: boolean, work?: WorkCounter): MarkerHit {
    let i = from;
    for (;;) {
      const at = this.#next(text, i);
      if (at === -1) break;
      const { marker, partial } = this.matchAt(text, at, final);
      if (work) work.scanned += at - i + 1;
      if (marker !== null) return { at, marker };
      if (partial) return { at, marker: null };
      i = at + 1;
    }
    if (work) work.scanned += text.length - i;
    if (final) return NONE;
    // The text may end inside the shared prefix itself (`<` of `<|`), before the native search could see it.
    const longest = Math.min(this.maxLength - 1, text.length - from);
    for (let size = longest; size > 0; size--) {
      const start = text.length - size;
      if (this.markers.some((m) => m.length > size && text.startsWith(m.slice(0, size), start)))
        return { at: start, marker: null };
    }
    return NONE;
  }
}
