import { isWorkMeter, type WorkMeter } from "./work-budget.js";

/** `\s` as a regular expression reads it: ASCII and Unicode white space, and the byte-order mark. */
function isSpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A character a number token may continue with: a digit, `.`, `e`, `E`, `+`, `-`. */
function isNumberPart(c: number): boolean {
  return isDigit(c) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

/**
 * The number token (`-?\d[\d.eE+-]*`) that starts at or after the white space from `from`, as
 * `[start, end]`, or `undefined` when none does; `next` is where scanning goes on either way.
 */
function tokenAfter(text: string, from: number): { start: number; end: number } | { next: number } {
  let i = from;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  const start = i;
  if (text.charCodeAt(i) === 0x2d) i++;
  if (!isDigit(text.charCodeAt(i))) return { next: start };
  i++;
  while (i < text.length && isNumberPart(text.charCodeAt(i))) i++;
  return { start, end: i };
}

/**
 * True when every number in a JSON text reads back, through `JSON.parse` and `JSON.stringify`, as the same text: then
 * a document rewritten from a plain `JSON.parse` keeps its numbers as written. False for integers beyond 2^53, `1.0`,
 * `1e-05`, `1E5`, `-0` and the like: rewrite those from `parseJson(text, { lossless: true })` and `serializeJson`
 * (R1, R2), or a digit is lost.
 *
 * A number token is one that starts the text or follows `:`, `,` or `[` (and white space). Inside strings such a
 * token may be seen too: that only sends the text to the lossless path, which is slower, never wrong. One forward
 * scan (each character is looked at a bounded number of times), charged to `options.meter` when one is given.
 *
 * @example
 * numbersRoundTrip('{"a": 1, "b": 0.5}'); // true
 * numbersRoundTrip('{"a": 1.0}'); // false
 * numbersRoundTrip('{"seed": 12345678901234567891}'); // false
 */
export function numbersRoundTrip(text: string, options: { meter?: WorkMeter } = {}): boolean {
  if (typeof text !== "string") return true;
  const meter = isWorkMeter(options?.meter) ? options.meter : undefined;
  let steps = 0;
  const roundTrips = (start: number, end: number): boolean => {
    const token = text.slice(start, end);
    steps += 3 * token.length;
    return String(Number(token)) === token;
  };
  let result = true;
  // At the start of the text (`^`), a token may come first.
  let i = 0;
  const first = tokenAfter(text, 0);
  if ("end" in first) {
    steps += first.end;
    result = roundTrips(first.start, first.end);
    i = first.end;
  }
  while (result && i < text.length) {
    const c = text.charCodeAt(i);
    steps++;
    if (c !== 0x3a && c !== 0x2c && c !== 0x5b) {
      i++;
      continue;
    }
    const found = tokenAfter(text, i + 1);
    if ("end" in found) {
      steps += found.end - i;
      result = roundTrips(found.start, found.end);
      i = found.end;
    } else {
      // White space holds no separator: scanning goes on after it.
      steps += found.next - i;
      i = found.next;
    }
  }
  meter?.charge(steps);
  return result;
}
