import { CHANNEL_CLOSE, CHANNEL_OPEN } from "./tokens.js";

/** What Gemma 4's template writes around a thought: `<|channel>thought\n…\n<channel|>`. */
const THOUGHT_OPEN = `${CHANNEL_OPEN}thought`;
const THOUGHT_CLOSE = CHANNEL_CLOSE;

export type ThoughtPiece = { type: "content" | "reasoning"; text: string };

/** How many characters at the end of `text` begin `marker` (a marker that may still arrive whole). */
function heldFor(text: string, marker: string): number {
  for (let size = Math.min(marker.length - 1, text.length); size > 0; size--)
    if (marker.startsWith(text.slice(text.length - size))) return size;
  return 0;
}

/**
 * Splits Gemma 4's thought channel out of content, piece by piece: `<|channel>thought\n…\n<channel|>` is reasoning
 * (the markers and the newline after `thought` and before the closer are syntax); any other channel stays content.
 * Text is held only while it may still be a marker; each character is examined a bounded number of times.
 *
 * @example
 * const split = new ThoughtSplitter();
 * [...split.push("<|channel>thought\nWeather first.\n<channel|>Sure."), ...split.end()];
 * // [{ type: "reasoning", text: "Weather first." }, { type: "content", text: "Sure." }]
 */
export class ThoughtSplitter {
  #inThought = false;
  /** The newline after `thought` may still arrive. */
  #lead = false;
  #held = "";
  #sawThought = false;

  /** Whether a thought opened (the result has reasoning, possibly empty). */
  get sawThought(): boolean {
    return this.#sawThought;
  }

  push(text: string): ThoughtPiece[] {
    const out: ThoughtPiece[] = [];
    let rest = this.#held + text;
    this.#held = "";
    for (;;) {
      if (this.#lead) {
        if (rest === "") break;
        if (rest.startsWith("\n")) rest = rest.slice(1);
        this.#lead = false;
      }
      if (!this.#inThought) {
        const at = rest.indexOf(THOUGHT_OPEN);
        if (at === -1) {
          const hold = heldFor(rest, THOUGHT_OPEN);
          if (rest.length > hold) out.push({ type: "content", text: rest.slice(0, rest.length - hold) });
          this.#held = rest.slice(rest.length - hold);
          break;
        }
        if (at > 0) out.push({ type: "content", text: rest.slice(0, at) });
        rest = rest.slice(at + THOUGHT_OPEN.length);
        this.#inThought = true;
        this.#sawThought = true;
        // The result has reasoning from here on, possibly empty (`<|channel>thought\n<channel|>`).
        out.push({ type: "reasoning", text: "" });
        this.#lead = true;
        continue;
      }
      const at = rest.indexOf(THOUGHT_CLOSE);
      if (at === -1) {
        const hold = Math.max(heldFor(rest, `\n${THOUGHT_CLOSE}`), heldFor(rest, THOUGHT_CLOSE));
        if (rest.length > hold) out.push({ type: "reasoning", text: rest.slice(0, rest.length - hold) });
        this.#held = rest.slice(rest.length - hold);
        break;
      }
      const thought = rest.slice(0, at);
      const text = thought.endsWith("\n") ? thought.slice(0, -1) : thought;
      if (text !== "") out.push({ type: "reasoning", text });
      rest = rest.slice(at + THOUGHT_CLOSE.length);
      this.#inThought = false;
    }
    return out.filter(
      (piece, index) =>
        piece.text !== "" || (piece.type === "reasoning" && out[index - 1]?.type !== "reasoning"),
    );
  }

  /** What is held goes out as the text it is (an unclosed thought stays reasoning). */
  end(): ThoughtPiece[] {
    const held = this.#held;
    this.#held = "";
    this.#lead = false;
    return held === "" ? [] : [{ type: this.#inThought ? "reasoning" : "content", text: held }];
  }
}
