import { commonPrefix } from "./marker-set.js";

/**
 * The longest text the plain check hands to the native search. V8 scans a needle shorter than seven characters
 * linearly (a `memchr` for its first character, the rest compared where it lands) and stays with that; a longer
 * needle starts the same way but moves to a Boyer-Moore-Horspool table after a few dozen hits of its first
 * character, which reads prose several times slower than `memchr` does (16 KB answers with 25 `<` each: the six
 * first characters of `<tool_call>` take 0.24× the time of the whole marker). A hit of the probe is then compared
 * with the whole needle in place.
 */
export const PROBE_LENGTH = 6;

/**
 * The fast check every family's `parse` makes first, as data so that one `parse` body serves every family without a
 * call through a closure: text without a needle (found by one native search for `probe`; `null`: nothing to search)
 * whose first character is not flagged in `firsts` (whitespace, or the first character of a lead) is content, all
 * of it; when it is flagged, `rest` tells (`undefined`: the text may hold more than content, so the full parser
 * reads it).
 */
export interface PlainCheck {
  /** What the native search looks for: the needles' shared first characters, at most {@link PROBE_LENGTH}. */
  readonly probe: string | null;
  /**
   * The needles a hit of `probe` is compared with in place (empty: a hit of `probe` is a needle). Every call of the
   * family holds one of them outside the text's first characters; a plain text holds none.
   */
  readonly needles: readonly string[];
  /** For each ASCII code: 1 when a text starting with it needs `rest`. */
  readonly firsts: Uint8Array;
  /** Whether a text starting with a non-ASCII character needs `rest`. */
  readonly wide: boolean;
  /** The content of a text whose needles are absent (`null`: only whitespace), `undefined` when it may hold more. */
  readonly rest: (text: string) => string | null | undefined;
}

/**
 * What the plain check did, counted where it happens: native searches started, the characters they examined (each
 * once, however many hits), and the characters compared with a needle at the hits.
 */
export interface PlainWork {
  searches: number;
  scanned: number;
  compared: number;
}

/**
 * Where the first needle of `check` starts in `text`, given where its probe was first found (`hit`), or -1. One pass:
 * each further search starts right after the last hit, and a hit costs at most one comparison per needle.
 */
export function needleFrom(check: PlainCheck, text: string, hit: number, work?: PlainWork): number {
  const probe = check.probe as string;
  const needles = check.needles;
  if (needles.length === 0) return hit;
  const skip = probe.length;
  for (let at = hit; at !== -1; ) {
    for (let n = 0; n < needles.length; n++) {
      const needle = needles[n] as string;
      let i = skip;
      while (i < needle.length && text.charCodeAt(at + i) === needle.charCodeAt(i)) i++;
      if (work !== undefined) work.compared += i - skip + 1;
      if (i === needle.length) return at;
    }
    const from = at + 1;
    at = text.indexOf(probe, from);
    if (work !== undefined) {
      work.searches++;
      work.scanned += (at === -1 ? text.length : at + 1) - from;
    }
  }
  return -1;
}

/**
 * Where the first needle of `check` starts in `text` (-1: none, and always for a check with nothing to search).
 *
 * @example
 * findNeedle(plainCheck(["<tool_call>", "<function="], []), "a <b> <function=f>"); // 6
 */
export function findNeedle(check: PlainCheck, text: string, work?: PlainWork): number {
  const probe = check.probe;
  if (probe === null) return -1;
  const hit = text.indexOf(probe);
  if (work !== undefined) {
    work.searches++;
    work.scanned += hit === -1 ? text.length : hit + 1;
  }
  return hit === -1 ? -1 : needleFrom(check, text, hit, work);
}

/** A plain text's content (`null` when it is only whitespace), `undefined` when it may hold more than content. */
export function plainContent(check: PlainCheck, text: string, work?: PlainWork): string | null | undefined {
  if (findNeedle(check, text, work) !== -1) return undefined;
  const c = text.charCodeAt(0);
  // NaN (the empty text) fails both comparisons: `rest` answers for it.
  if (c < 128 ? check.firsts[c] === 0 : c <= 0xffff && !check.wide && !isWideSpace(c)) return text;
  return check.rest(text);
}

/**
 * Whether `c`, a code unit of 128 or more, is white space to `String.prototype.trim` (a text of nothing else is
 * no content: `null`).
 */
export function isWideSpace(c: number): boolean {
  return (
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

/** The index of the first character that is not whitespace (the text's length when there is none). */
export function firstVisible(text: string): number {
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) break;
    i++;
  }
  return i;
}

/** Something other than white space as `String.prototype.trim` sees it. */
const VISIBLE = /\S/;

/** A call that opens the text without a marker of its own (Functionary v3.2's first line names its recipient). */
export interface OpeningCall {
  /** The characters such a call may start with. */
  firstChars: string;
  /** Whether the text holds such a call at `at` (its first visible character). */
  test(text: string, at: number): boolean;
}

/**
 * Builds a family's {@link PlainCheck}: text without any of `needles` (what every call of the family holds outside
 * the text's first characters; several share their first character, so one search finds them all) and whose first
 * visible characters start none of `leads` (a reasoning block, a call whose opening marker is missing) nor an
 * `opening` call is content, all of it. Most answers start with a letter: then the first character alone rules the
 * leads out.
 *
 * @example
 * plainCheck(["<tool_call>", "<function="], ["<think>"]).probe; // "<"
 */
export function plainCheck(
  needles: string | readonly string[] | null,
  leads: readonly string[],
  opening?: OpeningCall,
): PlainCheck {
  const list = needles === null ? [] : typeof needles === "string" ? [needles] : [...needles];
  const shared = commonPrefix(list);
  if (list.length > 0 && shared === "")
    throw new Error(
      `the needles ${JSON.stringify(list)} must share their first character: one search finds them`,
    );
  const probe = list.length === 0 ? null : shared.slice(0, PROBE_LENGTH);
  const only = list.length === 1 ? (list[0] as string) : null;
  const firsts = new Uint8Array(128);
  // Whitespace: the leads are looked for after it.
  for (let c = 0; c <= 0x20; c++) firsts[c] = 1;
  let wide = false;
  const flag = (c: number) => {
    if (c < 128) firsts[c] = 1;
    else wide = true;
  };
  for (const lead of leads) flag(lead.charCodeAt(0));
  if (opening) for (let i = 0; i < opening.firstChars.length; i++) flag(opening.firstChars.charCodeAt(i));
  const rest = (text: string): string | null | undefined => {
    const at = firstVisible(text);
    for (let i = 0; i < leads.length; i++) if (text.startsWith(leads[i] as string, at)) return undefined;
    if (opening?.test(text, at)) return undefined;
    if (at >= text.length) return null;
    // A visible character ends the question at once; white space only `trim` knows (`\v`, a no-break space) needs
    // the rest of the text looked at.
    const c = text.charCodeAt(at);
    if (c > 0x20 && (c < 128 || !isWideSpace(c))) return text;
    return VISIBLE.test(text) ? text : null;
  };
  return { probe, needles: only !== null && only === probe ? [] : list, firsts, wide, rest };
}
