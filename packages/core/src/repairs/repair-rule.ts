/**
 * The interface a package implements to add a repair (RULES.md R6). A repair only proposes text: core runs it only
 * when the original fails strict JSON, and accepts the result only when it parses to a JSON object. A rule must run
 * in linear time in the length of its input (it sees hostile text).
 *
 * @example
 * const stripBom: RepairRule = {
 *   specificationVersion: "1",
 *   id: "strip-bom",
 *   description: "a leading byte-order mark",
 *   repair: (text) => (text.startsWith("\uFEFF") ? text.slice(1) : undefined),
 * };
 */
export interface RepairRule {
  /** The version of this interface the rule implements. */
  readonly specificationVersion: "1";
  /** A stable kebab-case id, reported in `repairs` whenever the rule changed the text. */
  readonly id: string;
  /** What the rule fixes, in a few words. */
  readonly description: string;
  /** The repaired text, or `undefined` when the rule does not recognise the text. */
  repair(text: string): string | undefined;
}

/**
 * Scans JSON-ish text, calling `visit` for each character outside string literals and for each opening quote.
 * Linear time.
 */
export function scanOutsideStrings(
  text: string,
  visit: (index: number, code: number) => void,
  quotes: readonly number[] = [0x22],
): void {
  let inString = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString !== 0) {
      if (c === 0x5c) i++;
      else if (c === inString) inString = 0;
      continue;
    }
    if (quotes.includes(c)) inString = c;
    visit(i, c);
  }
}
