import type { FamilyContext } from "./define-syntax.js";
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

export interface TextLoopOptions {
  /** Markers that start a call (or a section of calls) in content and in reasoning. */
  callMarkers: readonly string[];
  reasoning?: ReasoningSyntax;
  /** Reads what follows a call marker (already consumed) in `channel`. */
  onCall(marker: string, channel: Channel): Step<void>;
  /** Runs once at the very start, before anything is read (the place for a call whose opening marker is missing). */
  atStart?(): Step<void>;
}

/**
 * The outer loop every family shares: content passes through, each call marker hands over to the family's call
 * reader, and reasoning blocks become reasoning. A reasoning block opens the text (after whitespace; or the prompt
 * opened it: `startInReasoning`) or follows a call (GLM-4.7 and Kimi K2 Thinking interleave thinking between
 * calls); a `<think>` anywhere else is text (an answer about tags), and so is a `</think>` that closes nothing. So
 * text with no call marker is content unless it starts with a reasoning block, which one native scan and a look at
 * its first characters tell. A call inside reasoning is read as a call (the model meant it; GLM-4.7, Kimi K2
 * Thinking and Qwen3-VL write them there), with a `call_in_reasoning` note.
 */
export function* textLoop(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  options: TextLoopOptions,
): Step<void> {
  const reasoning = options.reasoning;
  const beforeCalls = new MarkerSet(options.callMarkers);
  const afterCalls = new MarkerSet([...options.callMarkers, ...(reasoning ? [reasoning.open] : [])]);
  const inside = new MarkerSet([...options.callMarkers, ...(reasoning ? [reasoning.close] : [])]);
  let channel: Channel = "content";
  let sawCall = false;
  const open = function* (syntax: ReasoningSyntax): Step<void> {
    out.separator("content", syntax.before);
    out.openReasoning();
    channel = "reasoning";
    yield* reader.prefixOf(syntax.lead);
  };
  if (reasoning && context.startInReasoning) {
    out.openReasoning();
    channel = "reasoning";
    yield* reader.prefixOf(reasoning.lead);
  } else if (reasoning) {
    out.text("content", yield* reader.space());
    const opener = yield* reader.peek(new MarkerSet([reasoning.open]));
    if (opener !== null) {
      reader.consume(opener.length);
      yield* open(reasoning);
    }
  }
  if (options.atStart && channel === "content") {
    reader.journalStart("");
    yield* options.atStart();
    reader.journalEnd();
  }
  for (;;) {
    const current = channel;
    const marker = yield* reader.until(
      current === "reasoning" ? inside : sawCall ? afterCalls : beforeCalls,
      (text) => out.text(current, text),
    );
    if (marker === null) return;
    if (reasoning && marker === reasoning.open) {
      yield* open(reasoning);
      continue;
    }
    if (reasoning && marker === reasoning.close) {
      out.separator("reasoning", reasoning.trail);
      channel = "content";
      yield* reader.prefixOf(reasoning.after);
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
 * The fast check every family's `parse` makes first: text with none of `needles` (call markers, searched with the
 * engine's own `indexOf`) and whose first visible characters start none of `leads` (a reasoning block, a call whose
 * opening marker is missing) is content, all of it.
 */
export function plainCheck(needles: readonly string[], leads: readonly string[]): (text: string) => boolean {
  const [only] = needles;
  if (needles.length === 1 && only !== undefined)
    return (text) => {
      if (text.indexOf(only) !== -1) return false;
      const at = firstVisible(text);
      for (let i = 0; i < leads.length; i++) if (text.startsWith(leads[i] as string, at)) return false;
      return true;
    };
  return (text) => {
    for (let i = 0; i < needles.length; i++) if (text.indexOf(needles[i] as string) !== -1) return false;
    const at = firstVisible(text);
    for (let i = 0; i < leads.length; i++) if (text.startsWith(leads[i] as string, at)) return false;
    return true;
  };
}
