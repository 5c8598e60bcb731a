import { isWorkMeter, type WorkMeter } from "./work-budget.js";

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
export function numbersRoundTrip(text: string, options: { meter?: WorkMeter } = {}): boolean {
  if (typeof text !== "string") return true;
  const meter = isWorkMeter(options?.meter) ? options.meter : undefined;
  const counted = { steps: 1 };
  const result = scan(text, counted);
  meter?.charge(counted.steps);
  return result;
}

/** The scan; `counted.steps` gains every character it looks at (searched over, looked back at, read, converted). */
function scan(text: string, counted: { steps: number }): boolean {
  // One pass: a string is skipped whole (`indexOf` to its closing quote, which is the first quote after an even run
  // of backslashes), so only numbers outside strings are read. Text that is not JSON takes the safe side: an
  // unterminated string is false. Linear: each character is looked at a bounded number of times.
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && text.charCodeAt(end - 1) === 0x5c) {
        let slashes = 1;
        while (end - 1 - slashes > i && text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        counted.steps += slashes;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) {
        counted.steps += n - i;
        return false;
      }
      counted.steps += end + 1 - i;
      i = end + 1;
      continue;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if ((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d)
          j++;
        else break;
      }
      const token = text.slice(i, j);
      // Read, converted to a number and written back: three passes over the token.
      counted.steps += 3 * (j - i);
      if (String(Number(token)) !== token) return false;
      i = j;
      continue;
    }
    counted.steps++;
    i++;
  }
  return true;
}
