// A number token outside a string starts the text or follows `:`, `,` or `[` (and whitespace). Inside strings the pattern may
// match too: that only sends the text to the lossless path, which is slower, never wrong. Linear: no nested
// quantifier, and a failed attempt consumes nothing a later one scans again but whitespace.
const NUMBER_TOKEN = /(?:^|[:,[])\s*(-?\d[\d.eE+-]*)/g;

/**
 * True when every number in a JSON text reads back, through `JSON.parse` and `JSON.stringify`, as the same text: then
 * a document rewritten from a plain `JSON.parse` keeps its numbers as written. False for integers beyond 2^53, `1.0`,
 * `1e-05`, `1E5`, `-0` and the like: rewrite those from `parseJson(text, { lossless: true })` and `serializeJson`
 * (R1, R2), or a digit is lost.
 *
 * @example
 * numbersRoundTrip('{"a": 1, "b": 0.5}'); // true
 * numbersRoundTrip('{"a": 1.0}'); // false
 * numbersRoundTrip('{"seed": 12345678901234567891}'); // false
 */
export function numbersRoundTrip(text: string): boolean {
  NUMBER_TOKEN.lastIndex = 0;
  for (let match = NUMBER_TOKEN.exec(text); match !== null; match = NUMBER_TOKEN.exec(text)) {
    const token = match[1] as string;
    if (String(Number(token)) !== token) return false;
  }
  return true;
}
