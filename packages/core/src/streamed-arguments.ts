import { JsonObjectPrefix } from "./json-object-prefix.js";

/** How a call's text ends for whoever received its fragments: what to send after them, and what they then hold. */
export interface StreamedArgumentsEnd {
  /** The text to send after everything {@link StreamedArguments.push} let through (`""`: nothing more). */
  rest: string;
  /** What the receiver holds once `rest` is sent: the decided text, or text of the same JSON value. */
  text: string;
  /**
   * `exact`: `text` is the decided text byte for byte; `equivalent`: the same JSON value, written with the spacing
   * the model used for what was already sent; `conflict`: what was sent cannot begin the decided text, so the
   * receiver gets the model's own text (the call is then as unusable as it came).
   */
  fit: "exact" | "equivalent" | "conflict";
}

/** Opens a special token (Gemma 4's `<|"|>`, `<|im_end|>`, …) that a repair may have to remove with what precedes it. */
const SPECIAL_TOKEN_OPENER = "<|";

/** The text without the whitespace between JSON tokens (whitespace inside strings kept). Linear. */
function withoutInsignificantSpace(text: string): string {
  let out = "";
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
      out += text.slice(from, i);
      from = i + 1;
    }
  }
  return out + text.slice(from);
}

/**
 * One tool call's argument text as it streams (R9): which fragments may be handed on at once, and what to send at
 * the end so the receiver holds the decided text. A fragment goes on as it came while everything so far can still
 * begin a JSON object and holds no special-token opener (`<|`, or a fragment ending in `<`); from the first one that
 * cannot, the call is held to its end. At the end ({@link end}) the rest is the decided text after what was sent:
 * nothing more for a clean call, the repaired remainder for a call held late (a Python dict after `{`, a fence, a
 * template suffix after a whole object), and, for a call that cannot be used, the model's own remaining text, so
 * truncated text stays truncated. Constant work per character.
 *
 * @example
 * const call = new StreamedArguments();
 * call.push('{"city": '); // true: handed on
 * call.push("'Paris'}"); // false: held
 * call.end({ text: '{"city":"Paris"}', usable: true, raw: "{\"city\": 'Paris'}" });
 * // { rest: '"Paris"}', text: '{"city": "Paris"}', fit: "equivalent" }
 */
export class StreamedArguments {
  readonly #prefix: JsonObjectPrefix;
  #sent = "";
  #holding = false;

  constructor(options: { maxDepth?: number } = {}) {
    this.#prefix = new JsonObjectPrefix(options);
  }

  /** The text handed on so far. */
  get sent(): string {
    return this.#sent;
  }

  /** Whether fragments are being held (the call is decided at its end). */
  get holding(): boolean {
    return this.#holding;
  }

  /** Whether what was sent is a whole JSON object text. */
  get complete(): boolean {
    return !this.#holding && this.#prefix.complete;
  }

  /** Reads one fragment; true when it may be handed on now, as it came. Anything but a string is no text. */
  push(fragment: string): boolean {
    if (this.#holding) return false;
    if (typeof fragment !== "string" || fragment === "") return true;
    if (
      fragment.includes(SPECIAL_TOKEN_OPENER) ||
      fragment.charCodeAt(fragment.length - 1) === 0x3c ||
      !this.#prefix.push(fragment)
    ) {
      this.#holding = true;
      return false;
    }
    this.#sent += fragment;
    return true;
  }

  /**
   * What to send once the call is decided. `text` is the decided text (core's `normalizeAnswerArguments`), `usable`
   * whether a tool can run on it, `raw` the whole text the model sent (the accumulator's).
   */
  end(decided: { text: string; usable: boolean; raw: string }): StreamedArgumentsEnd {
    const sent = this.#sent;
    const target = decided.usable ? decided.text : decided.raw;
    if (target.startsWith(sent)) return { rest: target.slice(sent.length), text: target, fit: "exact" };
    if (decided.usable) {
      const compact = withoutInsignificantSpace(sent);
      if (target.startsWith(compact)) {
        const rest = target.slice(compact.length);
        return { rest, text: sent + rest, fit: "equivalent" };
      }
    }
    const raw = decided.raw;
    const rest = raw.startsWith(sent) ? raw.slice(sent.length) : "";
    return { rest, text: sent + rest, fit: "conflict" };
  }
}
