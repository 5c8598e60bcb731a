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

export { firstVisible, type OpeningCall, type PlainCheck, plainCheck } from "./plain-check.js";
