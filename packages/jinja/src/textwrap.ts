import { codePoints } from "./access.js";
import { fail } from "./template-error.js";

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

const len = (text: string) => codePoints(text).length;
const slice = (text: string, start: number, end?: number) => codePoints(text).slice(start, end).join("");

function handleLongWord(
  chunks: string[],
  line: string[],
  lineLength: number,
  width: number,
  hyphens: boolean,
  breakWords: boolean,
): void {
  const spaceLeft = width < 1 ? 1 : width - lineLength;
  if (breakWords) {
    let end = spaceLeft;
    const chunk = chunks[chunks.length - 1] as string;
    if (hyphens && len(chunk) > spaceLeft) {
      const head = slice(chunk, 0, spaceLeft);
      const hyphen = head.lastIndexOf("-");
      if (hyphen > 0 && /[^-]/.test(head.slice(0, hyphen))) end = len(head.slice(0, hyphen)) + 1;
    }
    line.push(slice(chunk, 0, end));
    chunks[chunks.length - 1] = slice(chunk, end);
  } else if (line.length === 0) line.push(chunks.pop() as string);
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
    .filter((c) => c !== undefined && c !== "");
  const lines: string[] = [];
  if (width <= 0) fail("ValueError", `invalid width ${width} (must be > 0)`);
  chunks.reverse();
  while (chunks.length > 0) {
    const line: string[] = [];
    let lineLength = 0;
    if (ALL_WS.test(chunks[chunks.length - 1] as string) && lines.length > 0) chunks.pop();
    while (chunks.length > 0) {
      const l = len(chunks[chunks.length - 1] as string);
      if (lineLength + l <= width) {
        line.push(chunks.pop() as string);
        lineLength += l;
      } else break;
    }
    if (chunks.length > 0 && len(chunks[chunks.length - 1] as string) > width) {
      handleLongWord(chunks, line, lineLength, width, breakOnHyphens, breakLongWords);
      lineLength = line.reduce((n, c) => n + len(c), 0);
    }
    if (line.length > 0 && ALL_WS.test(line[line.length - 1] as string)) {
      lineLength -= len(line[line.length - 1] as string);
      line.pop();
    }
    if (line.length > 0) lines.push(line.join(""));
  }
  return lines;
}
