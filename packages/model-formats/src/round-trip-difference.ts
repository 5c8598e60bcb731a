import type { RoundTripResult } from "./round-trip.js";

/** Where a round trip's rendering first leaves the model's output, as {@link roundTripDifference} finds it. */
export interface RoundTripDifference {
  /** The offset in the output, in UTF-16 code units (a JavaScript string index); 0 when the difference is in the prompt. */
  offset: number;
  /** The same offset in the output's UTF-8 bytes (what `cmp` and a byte dump show). */
  byteOffset: number;
  /** The 1-based line of the output it falls on. */
  line: number;
  /** The 1-based column on that line, in code points. */
  column: number;
  /**
   * The template renders the start of the turn otherwise than its generation prompt (a past turn's header, a
   * reasoning block it drops): the difference lies before the output begins, and the texts below are the
   * generation prompt followed by the output.
   */
  inPrompt: boolean;
  /** The text both share just before the difference (at most `context` code points). */
  before: string;
  /** What the output holds from the difference on (at most `context` code points; "" at its end). */
  output: string;
  /** What the template rendered from the difference on (at most `context` code points; "" at its end). */
  rendered: string;
}

function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return i;
  return a.length === b.length ? -1 : n;
}

const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;
const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** `count` code points of `text` from `start` (a code-point boundary), never cutting a surrogate pair. */
function after(text: string, start: number, count: number): string {
  let end = start;
  for (let n = 0; n < count && end < text.length; n++)
    end += isHigh(text.charCodeAt(end)) && isLow(text.charCodeAt(end + 1)) ? 2 : 1;
  return text.slice(start, end);
}

/** `count` code points of `text` before `end`. */
function before(text: string, end: number, count: number): string {
  let start = end;
  for (let n = 0; n < count && start > 0; n++)
    start -= isLow(text.charCodeAt(start - 1)) && isHigh(text.charCodeAt(start - 2)) ? 2 : 1;
  return text.slice(start, end);
}

/** The UTF-8 length of `text.slice(0, end)` (a lone surrogate counts 3 bytes, as U+FFFD). */
function utf8Length(text: string, end: number): number {
  let bytes = 0;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (isHigh(code) && i + 1 < end && isLow(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Where a failed {@link roundTrip} first differs, made readable: the offset in the output as a string index, in
 * UTF-8 bytes and as line and column, with the text both share before it and what each side holds from there
 * (`context` code points, default 32). The side that is shorter shows "" (the output stops where the template goes
 * on, or the reverse). `null` when the round trip matched or could not render at all (`result.error`).
 *
 * @example
 * const result = roundTrip({ template, output, messages, tools });
 * roundTripDifference(result, output);
 * // { offset: 57, byteOffset: 57, line: 2, column: 47, inPrompt: false, before: '…"arguments": {"city":',
 * //   output: '"Paris"}}\n</tool_call>', rendered: ' "Paris"}}\n</tool_call>' }
 */
export function roundTripDifference(
  result: RoundTripResult,
  output: string,
  options: { context?: number } = {},
): RoundTripDifference | null {
  if (result.ok || result.error !== undefined) return null;
  const context = Math.max(0, Math.floor(options.context ?? 32));
  const prompt = result.generationPrompt;
  // The rendered turn and the expected text (the generation prompt, then the output), in the same coordinates.
  const expected = prompt + output;
  let at: number;
  if (result.inPrompt) {
    at = firstDifference(result.rendered, prompt);
    if (at === -1) at = prompt.length;
  } else {
    at = Math.min(prompt.length + Math.max(0, result.firstDifference), expected.length);
  }
  // Never between the halves of a surrogate pair.
  if (at > 0 && isLow(expected.charCodeAt(at)) && isHigh(expected.charCodeAt(at - 1))) at--;
  const offset = result.inPrompt ? 0 : at - prompt.length;
  const head = output.slice(0, offset);
  const lastNewline = head.lastIndexOf("\n");
  let column = 1;
  for (let i = lastNewline + 1; i < offset; i++) {
    if (!(isLow(output.charCodeAt(i)) && isHigh(output.charCodeAt(i - 1)))) column++;
  }
  let line = 1;
  for (let i = head.indexOf("\n"); i !== -1; i = head.indexOf("\n", i + 1)) line++;
  return {
    offset,
    byteOffset: utf8Length(output, offset),
    line,
    column,
    inPrompt: result.inPrompt,
    before: before(expected, at, context),
    output: after(expected, at, context),
    rendered: at <= result.rendered.length ? after(result.rendered, at, context) : "",
  };
}
