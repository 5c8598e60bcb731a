import type { FamilyContext } from "./family-context.js";
import { MarkerSet } from "./marker-set.js";
import type { Channel, Output } from "./output.js";
import type { Reader, Step } from "./reader.js";

/** A reasoning block (`<think>…</think>`) and the separators the family's template writes around it. */
export interface ReasoningSyntax {
  open: string;
  close: string;
  /** Written right after `open` (dropped once). */
  lead: string;
  /** Written right before `close` (dropped once). */
  trail: string;
  /** Written after `close` before the content (dropped as far as it matches). */
  after: string;
  /** Written before `open` (dropped once). */
  before: string;
  /**
   * Other spellings of the two markers, read the same way (Hunyuan's checkpoints suffix their tokens:
   * `<think:opensource>`): a block opened with one spelling may close with any.
   */
  spellings?: readonly { open: string; close: string }[];
}

/** The reasoning block of Qwen3, QwQ, DeepSeek R1 and Kimi: `<think>\n…\n</think>\n\n`. */
export const THINK: ReasoningSyntax = {
  open: "<think>",
  close: "</think>",
  lead: "\n",
  trail: "\n",
  after: "\n\n",
  before: "",
};

/** `<think>…</think>` with no separators of its own (the text around it is the model's). */
export const BARE_THINK: ReasoningSyntax = {
  open: "<think>",
  close: "</think>",
  lead: "",
  trail: "",
  after: "",
  before: "",
};

/**
 * A wrapper around the answer (Command R7B's `<|START_RESPONSE|>…<|END_RESPONSE|>`, Granite's `<response>…</response>`,
 * Hunyuan's `<answer>…</answer>`): its opener is syntax where the content begins (the start of the text, or right
 * after the reasoning block), and its closer is syntax once it opened; anywhere else both are text.
 */
export interface ResponseSyntax {
  open: string;
  close: string;
  /** Written right after `open` (dropped once). */
  lead: string;
  /** Written right before `close` (dropped once). */
  trail: string;
}

export interface TextLoopOptions {
  /** Markers that start a call (or a section of calls) in content and in reasoning. */
  callMarkers: readonly string[];
  reasoning?: ReasoningSyntax;
  response?: ResponseSyntax;
  /** Markers that start a call only right after another call (never in the middle of content). */
  afterCallMarkers?: readonly string[];
  /**
   * Whether a call marker inside reasoning starts a call (default `true`). `false` for a family whose models write
   * calls only after thinking and quote the syntax while they think (Seed-OSS): there it is reasoning text.
   */
  callsInReasoning?: boolean;
  /** Reads what follows a call marker (already consumed) in `channel`. */
  onCall(marker: string, channel: Channel): Step<void>;
  /**
   * Runs once where the content begins: the start of the text, or the end of a reasoning block that opens it (the
   * place for a call whose opening marker is missing).
   */
  atStart?(): Step<void>;
}

/**
 * The outer loop every family shares: content passes through, each call marker hands over to the family's call
 * reader, and reasoning blocks become reasoning. A reasoning block opens the text (after whitespace; or the prompt
 * opened it: `startInReasoning`) or follows a call (GLM-4.7 and Kimi K2 Thinking interleave thinking between
 * calls); a `<think>` anywhere else is text (an answer about tags), and so is a `</think>` that closes nothing. So
 * text with no call marker is content unless it starts with a reasoning block, which one native scan and a look at
 * its first characters tell. A call inside reasoning is read as a call (the model meant it; GLM-4.7, Kimi K2
 * Thinking and Qwen3-VL write them there), with a `call_in_reasoning` note, unless the family says otherwise
 * (`callsInReasoning: false`).
 */
export function* textLoop(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  options: TextLoopOptions,
): Step<void> {
  const reasoning = options.reasoning;
  const response = options.response;
  const calls = options.callMarkers;
  const more = options.afterCallMarkers ?? [];
  const opens = reasoning ? [reasoning.open, ...(reasoning.spellings ?? []).map((s) => s.open)] : [];
  const closes = reasoning ? [reasoning.close, ...(reasoning.spellings ?? []).map((s) => s.close)] : [];
  const sets = new Map<string, MarkerSet>();
  // The markers that count in the current state: calls; after a call, the calls only allowed there and a reasoning
  // block; inside reasoning, its end; inside a response wrapper, its end.
  const markers = (inReasoning: boolean, afterCall: boolean, inResponse: boolean): MarkerSet => {
    const key = `${inReasoning}${afterCall}${inResponse}`;
    let set = sets.get(key);
    if (set === undefined) {
      const callsHere = !inReasoning || options.callsInReasoning !== false;
      const list = callsHere ? [...calls] : [];
      if (afterCall && callsHere) list.push(...more);
      if (reasoning) list.push(...(inReasoning ? closes : afterCall ? opens : []));
      if (response && inResponse && !inReasoning) list.push(response.close);
      set = MarkerSet.of(list.filter((m) => m !== ""));
      sets.set(key, set);
    }
    return set;
  };
  let channel: Channel = "content";
  let sawCall = false;
  let inResponse = false;
  const open = function* (syntax: ReasoningSyntax): Step<void> {
    out.separator("content", syntax.before);
    out.openReasoning();
    channel = "reasoning";
    yield* reader.prefixOf(syntax.lead);
  };
  // Where content begins (the start, or after the reasoning block), a response wrapper may open.
  const maybeResponse = function* (): Step<void> {
    if (!response || inResponse) return;
    out.text("content", yield* reader.space());
    const opener = yield* reader.peek(MarkerSet.of([response.open]));
    if (opener === null) return;
    reader.consume(opener.length);
    out.separator("content", "");
    inResponse = true;
    yield* reader.prefixOf(response.lead);
  };
  if (reasoning && context.startInReasoning) {
    out.openReasoning();
    channel = "reasoning";
    yield* reader.prefixOf(reasoning.lead);
  } else if (reasoning) {
    out.text("content", yield* reader.space());
    const opener = yield* reader.peek(MarkerSet.of(opens));
    if (opener !== null) {
      reader.consume(opener.length);
      yield* open(reasoning);
    }
  }
  // Where the content begins (the start, or the end of a reasoning block that opens the text): a response wrapper,
  // and the family's check for a call whose opening marker is missing.
  let begun = false;
  const begin = function* (): Step<void> {
    begun = true;
    yield* maybeResponse();
    if (options.atStart) {
      reader.journalStart("");
      yield* options.atStart();
      reader.journalEnd();
      // A call read there counts as one: what only follows a call may follow it.
      if (out.index > 0) sawCall = true;
    }
  };
  if (channel === "content") yield* begin();
  for (;;) {
    const current = channel;
    const marker = yield* reader.until(markers(current === "reasoning", sawCall, inResponse), (text) =>
      out.text(current, text),
    );
    if (marker === null) return;
    if (reasoning && current === "content" && opens.includes(marker)) {
      yield* open(reasoning);
      continue;
    }
    if (reasoning && current === "reasoning" && closes.includes(marker)) {
      out.separator("reasoning", reasoning.trail);
      channel = "content";
      yield* reader.prefixOf(reasoning.after);
      if (!begun) yield* begin();
      else yield* maybeResponse();
      continue;
    }
    if (response && marker === response.close && inResponse) {
      out.separator("content", response.trail);
      inResponse = false;
      continue;
    }
    sawCall = true;
    if (channel === "reasoning") {
      out.issue({
        code: "call_in_reasoning",
        severity: "info",
        message: `a call inside ${reasoning?.open ?? "reasoning"}: read as a call`,
      });
    }
    reader.journalStart(marker);
    yield* options.onCall(marker, channel);
    reader.journalEnd();
  }
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

/**
 * The fast check every family's `parse` makes first, as data so that one `parse` body serves every family without a
 * call through a closure: text without `needle` (searched once with the engine's own `indexOf`; `null`: nothing to
 * search) whose first character is not flagged in `firsts` (whitespace, or the first character of a lead) is
 * content, all of it; when it is flagged, `rest` tells (`undefined`: the text may hold more than content, so the
 * full parser reads it).
 */
export interface PlainCheck {
  readonly needle: string | null;
  /**
   * A second text every call may hold instead of `needle` (`null`: none); a plain text holds neither. One scan finds
   * both when they start with the same character.
   */
  readonly otherNeedle: string | null;
  /** For each ASCII code: 1 when a text starting with it needs `rest`. */
  readonly firsts: Uint8Array;
  /** Whether a text starting with a non-ASCII character needs `rest`. */
  readonly wide: boolean;
  /** The content of a text whose needle is absent (`null`: only whitespace), `undefined` when it may hold more. */
  readonly rest: (text: string) => string | null | undefined;
}

/**
 * Whether `text` holds `one` or `other`. Two markers that start with the same character take one native scan for that
 * character (plain prose rarely holds it), each place it occurs checked for both: as fast as one `indexOf` on text
 * without it, where two `indexOf` calls would scan the text twice.
 *
 * @example
 * holdsEither("a <function=f>", "<tool_call>", "<function="); // true
 */
export function holdsEither(text: string, one: string, other: string): boolean {
  const lead = one[0] as string;
  if (other[0] !== lead) return text.indexOf(one) !== -1 || text.indexOf(other) !== -1;
  for (let at = text.indexOf(lead); at !== -1; at = text.indexOf(lead, at + 1))
    if (text.startsWith(one, at) || text.startsWith(other, at)) return true;
  return false;
}

/** A plain text's content (`null` when it is only whitespace), `undefined` when it may hold more than content. */
export function plainContent(check: PlainCheck, text: string): string | null | undefined {
  if (check.otherNeedle !== null) {
    if (holdsEither(text, check.needle as string, check.otherNeedle)) return undefined;
  } else if (check.needle !== null && text.indexOf(check.needle) !== -1) return undefined;
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
 * Builds a family's {@link PlainCheck}: text without `needle` (what every call of the family holds outside the
 * text's first characters) and whose first visible characters start none of `leads` (a reasoning block, a call whose
 * opening marker is missing) nor an `opening` call is content, all of it. Most answers start with a letter: then the
 * first character alone rules the leads out.
 */
export function plainCheck(
  needles: string | readonly [string, string] | null,
  leads: readonly string[],
  opening?: OpeningCall,
): PlainCheck {
  const needle = typeof needles === "string" || needles === null ? needles : needles[0];
  const otherNeedle = typeof needles === "string" || needles === null ? null : needles[1];
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
  return { needle, otherNeedle, firsts, wide, rest };
}
