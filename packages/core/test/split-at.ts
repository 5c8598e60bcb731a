/**
 * A text cut into pieces at the given fractions of its length (repeated cuts count once): a stream's fragments,
 * for tests that feed text piece by piece.
 *
 * @example
 * splitAt("abcd", [0.5]); // ["ab", "cd"]
 */
export function splitAt(text: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts.map((c) => Math.floor(c * text.length)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const cut of at) {
    pieces.push(text.slice(from, cut));
    from = cut;
  }
  pieces.push(text.slice(from));
  return pieces;
}
