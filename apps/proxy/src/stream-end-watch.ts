import type { RepairedApi } from "./repair-json-response.js";

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

/** Bytes kept from the end of one piece, so a marker split across two pieces is still found. */
const CARRY = 32;
const FINISH_REASON = ascii('"finish_reason"');
const TERMINAL_EVENTS = ['"response.completed"', '"response.incomplete"', '"response.failed"'].map(ascii);
const DONE = ascii("[DONE]");
const DATA = ascii("data:");

function matchesAt(bytes: Uint8Array, at: number, needle: Uint8Array): boolean {
  if (at < 0 || at + needle.length > bytes.length) return false;
  for (let i = 0; i < needle.length; i++) if (bytes[at + i] !== needle[i]) return false;
  return true;
}

const isBlank = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x09;

/**
 * Watches an SSE body's bytes, as they come, for the sign that the upstream finished its answer: `data: [DONE]` at
 * the start of a line, or (Chat Completions) a `"finish_reason"` with a string value, or (Responses API) a
 * `response.completed`, `response.incomplete` or `response.failed` event. A stream that ends without any of them was
 * cut, and the client must be told. Each byte is looked at a bounded number of times (one scan per piece, plus a
 * carry of {@link CARRY} bytes); nothing is parsed. Markers inside JSON strings cannot match: there a quote is
 * escaped and a line break is `\n`.
 *
 * @example
 * const watch = new StreamEndWatch("chat.completions");
 * watch.push(Buffer.from('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n'));
 * watch.finished; // true
 */
export class StreamEndWatch {
  readonly #needles: readonly Uint8Array[];
  readonly #chat: boolean;
  #carry: Uint8Array = new Uint8Array([0x0a]);
  #finished = false;

  constructor(api: RepairedApi) {
    this.#chat = api === "chat.completions";
    this.#needles = this.#chat ? [FINISH_REASON] : TERMINAL_EVENTS;
  }

  /** The upstream said its answer is complete. */
  get finished(): boolean {
    return this.#finished;
  }

  push(piece: Uint8Array): void {
    if (this.#finished || piece.length === 0) return;
    const carry = this.#carry;
    const bytes = new Uint8Array(carry.length + piece.length);
    bytes.set(carry, 0);
    bytes.set(piece, carry.length);
    for (let at = bytes.indexOf(0x22); at !== -1 && !this.#finished; at = bytes.indexOf(0x22, at + 1))
      this.#check(bytes, at);
    for (let at = bytes.indexOf(0x5b); at !== -1 && !this.#finished; at = bytes.indexOf(0x5b, at + 1))
      if (matchesAt(bytes, at, DONE) && this.#lineStartsData(bytes, at)) this.#finished = true;
    this.#carry = bytes.slice(Math.max(0, bytes.length - CARRY));
  }

  #check(bytes: Uint8Array, at: number): void {
    for (const needle of this.#needles) {
      if (!matchesAt(bytes, at, needle)) continue;
      if (!this.#chat) {
        this.#finished = true;
        return;
      }
      // `"finish_reason"`, blanks, `:`, blanks, then a string (not `null`).
      let i = at + needle.length;
      while (isBlank(bytes[i])) i++;
      if (bytes[i] !== 0x3a) return;
      i++;
      while (isBlank(bytes[i])) i++;
      if (bytes[i] === 0x22) this.#finished = true;
    }
  }

  /** `[DONE]` at `at` is the whole data of a line `data: [DONE]` (one optional space). */
  #lineStartsData(bytes: Uint8Array, at: number): boolean {
    let start = at - 5;
    if (bytes[at - 1] === 0x20) start--;
    if (!matchesAt(bytes, start, DATA)) return false;
    const before = bytes[start - 1];
    return before === 0x0a || before === 0x0d;
  }
}
