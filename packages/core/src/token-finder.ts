import { createWorkMeter, isWorkMeter, type WorkMeter } from "./work-budget.js";

/** Finds fixed tokens in one text without scanning any stretch twice for the same token. */
export interface TokenFinder {
  /** The text searched. */
  readonly text: string;
  /** The meter every scan is charged to. */
  readonly meter: WorkMeter;
  /** `text.indexOf(token, from)`, answered from the last search for `token` when that search already covers it. */
  indexOf(token: string, from: number): number;
}

interface Memo {
  from: number;
  found: number;
}

class Finder implements TokenFinder {
  readonly #memo = new Map<string, Memo>();

  constructor(
    readonly text: string,
    readonly meter: WorkMeter,
  ) {}

  indexOf(token: string, from: number): number {
    const start = Math.max(from || 0, 0);
    const memo = this.#memo.get(token);
    // The last search started at or before `start` and found nothing before its match: the answer stands.
    if (memo !== undefined && memo.from <= start && (memo.found === -1 || memo.found >= start)) {
      this.meter.charge(1);
      return memo.found;
    }
    const found = this.text.indexOf(token, start);
    this.meter.charge(1 + (found === -1 ? this.text.length : found + token.length) - start);
    if (memo === undefined) this.#memo.set(token, { from: start, found });
    else {
      memo.from = start;
      memo.found = found;
    }
    return found;
  }
}

/**
 * A finder over one immutable text: each search for a token starts where the last one for the same token left
 * off, when that answers it, so a scanner that asks "where is the next `</tag>` from here" at every step (forward
 * through the text) scans each character once per token instead of once per question. Every scan is charged to the
 * meter. The primitive the model-format parsers use to stay linear on hostile text.
 *
 * @example
 * const finder = createTokenFinder({ text: "a</p>b</p>" });
 * finder.indexOf("</p>", 0); // 1
 * finder.indexOf("</p>", 1); // 1, from memory
 * finder.indexOf("</x>", 0); // -1, after one scan; asked again from any later place: -1 at once
 */
export function createTokenFinder(options: { text: string; meter?: WorkMeter }): TokenFinder {
  const text = typeof options.text === "string" ? options.text : "";
  return new Finder(text, isWorkMeter(options.meter) ? options.meter : createWorkMeter());
}
