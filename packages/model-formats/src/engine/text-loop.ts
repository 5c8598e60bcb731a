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
 * The outer loop every family shares: content passes through, `<think>` blocks become reasoning, and each call
 * marker hands over to the family's call reader. A call inside reasoning is read as a call (the model meant it;
 * GLM-4.7, Kimi K2 Thinking and Qwen3-VL write them there), with a `call_in_reasoning` note. A closing reasoning
 * tag with no opening one stays in content with a `reasoning_unopened` warning: the prompt opened the block, and
 * the caller says so with `startInReasoning`.
 */
export function* textLoop(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  options: TextLoopOptions,
): Step<void> {
  const reasoning = options.reasoning;
  const content = new MarkerSet([
    ...options.callMarkers,
    ...(reasoning ? [reasoning.open, reasoning.close] : []),
  ]);
  const inside = new MarkerSet([...options.callMarkers, ...(reasoning ? [reasoning.close] : [])]);
  let channel: Channel = "content";
  if (reasoning && context.startInReasoning) {
    out.openReasoning();
    channel = "reasoning";
    yield* reader.prefixOf(reasoning.lead);
  }
  if (options.atStart && channel === "content") yield* options.atStart();
  for (;;) {
    const current = channel;
    const marker = yield* reader.until(current === "content" ? content : inside, (text) =>
      out.text(current, text),
    );
    if (marker === null) return;
    if (reasoning && marker === reasoning.open) {
      out.separator("content", reasoning.before);
      out.openReasoning();
      channel = "reasoning";
      yield* reader.prefixOf(reasoning.lead);
      continue;
    }
    if (reasoning && marker === reasoning.close) {
      if (channel === "reasoning") {
        out.separator("reasoning", reasoning.trail);
        channel = "content";
        yield* reader.prefixOf(reasoning.after);
      } else {
        out.issue({
          code: "reasoning_unopened",
          severity: "warning",
          message: `${reasoning.close} without ${reasoning.open}: kept in content (set startInReasoning when the prompt opens the block)`,
        });
        out.text("content", marker);
      }
      continue;
    }
    if (channel === "reasoning") {
      out.issue({
        code: "call_in_reasoning",
        severity: "info",
        message: `a call inside ${reasoning?.open ?? "reasoning"}: read as a call`,
      });
    }
    yield* options.onCall(marker, channel);
  }
}
