import { objectEnd } from "./repairs/json-objects.js";

/**
 * Whether no JSON value can begin where the text's first non-whitespace character is (a Markdown fence, prose, a
 * template token), or an object opens with something other than a key. Such text skips the parse that would fail: a
 * failed `JSON.parse` throws, and building the exception costs more than the repair that follows.
 *
 * @example
 * startsNoJsonValue("```json\n{}\n```"); // true
 * startsNoJsonValue("{'a': 1}"); // true
 * startsNoJsonValue('{"a": 1}'); // false
 */
export function startsNoJsonValue(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    // An object whose first key is not a JSON string (`{'a': 1}`, `{a: 1}`): no parse can succeed.
    if (c === 0x7b) return !objectCanBegin(text, i + 1);
    // [ " - 0-9 t f n
    return !(
      c === 0x5b ||
      c === 0x22 ||
      c === 0x2d ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x74 ||
      c === 0x66 ||
      c === 0x6e
    );
  }
  return true;
}

/**
 * Whether what follows an object's `{` at `from` can begin its body: blanks, then `"` (a key) or `}`.
 *
 * @example
 * objectCanBegin('{ "a": 1}', 1); // true
 * objectCanBegin("{'a': 1}", 1); // false
 */
export function objectCanBegin(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    return c === 0x22 || c === 0x7d;
  }
  // `{` and blanks: cut text, which the parse reports (its message is made late, when it is needed).
  return true;
}

/**
 * Whether the text is an object sent twice (`{…}{…}`, as a stream that re-sends a finished call leaves it): its
 * middle two characters are `}{`, and the object opening at its start closes exactly before the middle (strings
 * skipped as JSON reads them). Such text holds two values, so no parse can succeed: the parse that would throw is
 * skipped, as for {@link startsNoJsonValue}. Two character reads for any other text; the scan of the first half runs
 * only when the middle is `}{`.
 *
 * @example
 * repeatsOneObject('{"a":1}{"a":1}'); // true
 * repeatsOneObject('{"a":"}{"}'); // false
 */
export function repeatsOneObject(text: string): boolean {
  const half = text.length >> 1;
  if (half < 2 || text.length !== 2 * half) return false;
  if (text.charCodeAt(half - 1) !== 0x7d || text.charCodeAt(half) !== 0x7b || text.charCodeAt(0) !== 0x7b)
    return false;
  return objectEnd(text, 0) === half;
}
