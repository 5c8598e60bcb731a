import { codePoints } from "../runtime/access.js";
import { chargeSteps } from "../runtime/render-budget.js";
import { fail } from "../runtime/template-error.js";

/**
 * Python's `textwrap.wrap(text, width, expand_tabs=False, replace_whitespace=False, break_long_words=…,
 * break_on_hyphens=…)`, as Jinja's `wordwrap` filter calls it: the same chunking (words, whitespace runs,
 * hyphenated words, em-dashes) and the same line filling.
 */

const WS = "[\\t\\n\\x0b\\x0c\\r ]";
const NWS = "[^\\t\\n\\x0b\\x0c\\r ]";
const WORD = "[\\p{L}\\p{N}_]";
const WORD_PUNCT = "[\\p{L}\\p{N}_!\"'&.,?]";
const LETTER = "(?:(?!\\p{Nd})[\\p{L}\\p{N}_])";
const WORDSEP = new RegExp(
  `(${WS}+|(?<=${WORD_PUNCT})-{2,}(?=${WORD})|${NWS}+?(?:-(?:(?<=${LETTER}{2}-)|(?<=${LETTER}-${LETTER}-))(?=${LETTER}-?${LETTER})|(?=${WS}|$)|(?<=${WORD_PUNCT})(?=-{2,}${WORD})))`,
  "u",
);
const WORDSEP_SIMPLE = new RegExp(`(${WS}+)`, "u");
const ALL_WS = /^[\t\n\x0b\x0c\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

const WS_CHAR = /^[\t\n\x0b\x0c\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/;

/**
 * A chunk's code points and where its unread part starts: a long word broken over many lines is read on from an
 * offset, never copied again, so breaking it costs its length once (Python copies the rest at each line).
 */
class Chunk {
  readonly points: string[];
  start = 0;
  /** The last code point that is not whitespace (`str.isspace`), or -1. */
  private readonly lastSolid: number;

  constructor(text: string) {
    chargeSteps(text.length);
    this.points = codePoints(text);
    let last = this.points.length - 1;
    while (last >= 0 && WS_CHAR.test(this.points[last] as string)) last--;
    this.lastSolid = last;
  }

  get length(): number {
    return this.points.length - this.start;
  }

  /** `chunk.strip() == ''` for the unread part. */
  get blank(): boolean {
    return this.start > this.lastSolid;
  }

  /** Reads `count` code points. */
  take(count: number): string {
    const end = Math.min(this.points.length, this.start + count);
    chargeSteps(end - this.start);
    const text = this.points.slice(this.start, end).join("");
    this.start = end;
    return text;
  }
}

function handleLongWord(
  chunks: Chunk[],
  line: string[],
  lineLength: number,
  width: number,
  hyphens: boolean,
  breakWords: boolean,
): number {
  const spaceLeft = width < 1 ? 1 : width - lineLength;
  const chunk = chunks[chunks.length - 1] as Chunk;
  if (breakWords) {
    let end = spaceLeft;
    if (hyphens && chunk.length > spaceLeft) {
      chargeSteps(spaceLeft);
      const head = chunk.points.slice(chunk.start, chunk.start + spaceLeft);
      const hyphen = head.lastIndexOf("-");
      if (hyphen > 0 && head.slice(0, hyphen).some((c) => c !== "-")) end = hyphen + 1;
    }
    const piece = chunk.take(end);
    line.push(piece);
    if (chunk.length === 0) chunks.pop();
    return codePoints(piece).length;
  }
  if (line.length === 0) {
    const whole = chunk.take(chunk.length);
    chunks.pop();
    line.push(whole);
    return chunk.points.length;
  }
  return 0;
}

/**
 * `textwrap.wrap(text, width, …)` with Jinja's settings.
 *
 * @example
 * wrapText("a bb ccc", { width: 4, breakLongWords: true, breakOnHyphens: true }); // ["a bb", "ccc"]
 */
export function wrapText(
  text: string,
  options: { width: number; breakLongWords: boolean; breakOnHyphens: boolean },
): string[] {
  const { width, breakLongWords, breakOnHyphens } = options;
  const chunks = text
    .split(breakOnHyphens ? WORDSEP : WORDSEP_SIMPLE)
    .filter((c) => c !== undefined && c !== "")
    .map((c) => new Chunk(c));
  const lines: string[] = [];
  if (width <= 0) fail("ValueError", `invalid width ${width} (must be > 0)`);
  chunks.reverse();
  while (chunks.length > 0) {
    const line: string[] = [];
    const blankAt: boolean[] = [];
    let lineLength = 0;
    if ((chunks[chunks.length - 1] as Chunk).blank && lines.length > 0) chunks.pop();
    while (chunks.length > 0) {
      const chunk = chunks[chunks.length - 1] as Chunk;
      const l = chunk.length;
      if (lineLength + l <= width) {
        blankAt.push(chunk.blank);
        line.push(chunk.take(l));
        chunks.pop();
        lineLength += l;
      } else break;
    }
    if (chunks.length > 0 && (chunks[chunks.length - 1] as Chunk).length > width) {
      const before = line.length;
      lineLength += handleLongWord(chunks, line, lineLength, width, breakOnHyphens, breakLongWords);
      if (line.length > before) blankAt.push(ALL_WS.test(line[line.length - 1] as string));
    }
    if (line.length > 0 && blankAt[line.length - 1] === true) {
      lineLength -= codePoints(line[line.length - 1] as string).length;
      line.pop();
    }
    if (line.length > 0) lines.push(line.join(""));
  }
  return lines;
}
