import { codePoints } from "../access.js";

/** Python's case mapping and character classes for `str` methods (Unicode properties standing in for its tables). */

export const CASED = /\p{Cased}/u;
export const UPPER = /\p{Uppercase}/u;
export const LOWER = /\p{Lowercase}/u;
export const TITLE = /\p{Lt}/u;
const TITLECASE: Record<string, string> = {
  Ǆ: "ǅ",
  ǅ: "ǅ",
  ǆ: "ǅ",
  Ǉ: "ǈ",
  ǈ: "ǈ",
  ǉ: "ǈ",
  Ǌ: "ǋ",
  ǋ: "ǋ",
  ǌ: "ǋ",
  Ǳ: "ǲ",
  ǲ: "ǲ",
  ǳ: "ǲ",
};

/** A character's titlecase (its uppercase, but `ǆ` → `ǅ` and `ß` → `Ss`). */
function titleChar(ch: string): string {
  const special = TITLECASE[ch];
  if (special !== undefined) return special;
  const upper = ch.toUpperCase();
  if (upper.length <= 2 && codePoints(upper).length === 1) return upper;
  const cps = codePoints(upper);
  return (cps[0] as string) + cps.slice(1).join("").toLowerCase();
}

/** Python's `str.title`. */
export function titleString(text: string): string {
  let out = "";
  let previousCased = false;
  for (const ch of text) {
    out += previousCased ? ch.toLowerCase() : titleChar(ch);
    previousCased = CASED.test(ch);
  }
  return out;
}

/** Python's `str.capitalize`. */
export function capitalizeString(text: string): string {
  const cps = codePoints(text);
  if (cps.length === 0) return "";
  return titleChar(cps[0] as string) + cps.slice(1).join("").toLowerCase();
}

export function isTitle(text: string): boolean {
  let cased = false;
  let previousCased = false;
  for (const ch of text) {
    if (UPPER.test(ch) || TITLE.test(ch)) {
      if (previousCased) return false;
      previousCased = true;
      cased = true;
    } else if (LOWER.test(ch)) {
      if (!previousCased) return false;
      previousCased = true;
      cased = true;
    } else previousCased = false;
  }
  return cased;
}

export function isCaseOnly(text: string, want: RegExp, refuse: RegExp): boolean {
  let cased = false;
  for (const ch of text) {
    if (refuse.test(ch) || TITLE.test(ch)) return false;
    if (want.test(ch)) cased = true;
  }
  return cased;
}

// Characters outside Nd that Python counts as digits (superscripts, circled and parenthesized digits…).
const OTHER_DIGITS =
  /[\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490\u24ea\u24f5-\u24fd\u24ff\u2776-\u277e\u2780-\u2788\u278a-\u2792\u{1f100}-\u{1f10a}]/u;
const CJK_NUMERALS = /[〇零一二三四五六七八九十百千万億兆壱弐参拾佰仟萬贰叁肆伍陆柒捌玖]/u;
export const DIGIT = new RegExp(`^(?:\\p{Nd}|${OTHER_DIGITS.source})+$`, "u");
export const NUMERIC = new RegExp(`^(?:\\p{N}|${CJK_NUMERALS.source})+$`, "u");
export const ALNUM = new RegExp(`^(?:\\p{L}|\\p{N}|${CJK_NUMERALS.source})+$`, "u");
