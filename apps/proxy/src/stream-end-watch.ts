import type { RepairedApi } from "./repair-json-response.js";

const ascii = (text: string): Buffer => Buffer.from(text, "latin1");

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
 * the start of a line, or (Chat Completions) a last `"finish_reason"` with a string value (every choice ends with its
 * finish reason, so the last one in a whole answer has one; a chunk of another choice after it says that choice is
 * still going), or (Responses API) a `response.completed`, `response.incomplete` or `response.failed` event. A stream
 * that ends without any of them was cut, and the client must be told. Each piece is searched from its end with the
 * native `Buffer#lastIndexOf`, where it lies (no copy, a few calls a piece however many events it holds): only the
 * {@link CARRY} bytes on either side of a boundary inside a line are joined, so a marker split across two pieces is
 * still found. Nothing is parsed. Markers inside JSON strings cannot match: there a quote is escaped and a line break
 * is `\n`.
 *
 * @example
 * const watch = new StreamEndWatch("chat.completions");
 * watch.push(Buffer.from('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n'));
 * watch.finished; // true
 */
export class StreamEndWatch {
  readonly #chat: boolean;
  /** The last bytes of what came before (a line break at first: the body starts a line); a view, not a copy. */
  #carry: Buffer = Buffer.from([0x0a]);
  /** `[DONE]` or a terminal Responses API event came: nothing after it changes the verdict. */
  #ended = false;
  /** The last finish reason seen (Chat Completions) had a string value. */
  #lastFinish = false;

  constructor(api: RepairedApi) {
    this.#chat = api === "chat.completions";
  }

  /** The upstream said its answer is complete. */
  get finished(): boolean {
    return this.#ended || this.#lastFinish;
  }

  push(piece: Uint8Array): void {
    if (this.#ended || piece.length === 0) return;
    const bytes = Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.length);
    const carry = this.#carry;
    const last = carry[carry.length - 1];
    const lineStart = last === 0x0a || last === 0x0d;
    // A marker may be split across the two pieces (none holds a line break): the seam is searched first.
    if (!lineStart) this.#scan(Buffer.concat([carry, bytes.subarray(0, CARRY)]), false);
    if (!this.#ended) this.#scan(bytes, lineStart);
    const tail = bytes.length >= CARRY ? bytes : Buffer.concat([carry, bytes]);
    this.#carry = tail.subarray(Math.max(0, tail.length - CARRY));
  }

  /**
   * Looks for the markers in `bytes` (what came after what was searched before, or a seam around it). `lineStart`:
   * `bytes` starts a line. A marker in a seam may be seen twice: it only says the same.
   */
  #scan(bytes: Buffer, lineStart: boolean): void {
    if (this.#chat) {
      const at = bytes.lastIndexOf(FINISH_REASON);
      if (at !== -1) this.#lastFinish = this.#hasValue(bytes, at + FINISH_REASON.length);
    } else
      for (const needle of TERMINAL_EVENTS)
        if (bytes.lastIndexOf(needle) !== -1) {
          this.#ended = true;
          return;
        }
    for (let at = bytes.lastIndexOf(DONE); at !== -1; at = at === 0 ? -1 : bytes.lastIndexOf(DONE, at - 1))
      if (this.#lineStartsData(bytes, at, lineStart)) {
        this.#ended = true;
        return;
      }
  }

  /** `"finish_reason"`, blanks, `:`, blanks, then a string (not `null`). */
  #hasValue(bytes: Uint8Array, after: number): boolean {
    let i = after;
    while (isBlank(bytes[i])) i++;
    if (bytes[i] !== 0x3a) return false;
    i++;
    while (isBlank(bytes[i])) i++;
    return bytes[i] === 0x22;
  }

  /** `[DONE]` at `at` is the whole data of a line `data: [DONE]` (one optional space). */
  #lineStartsData(bytes: Uint8Array, at: number, lineStart: boolean): boolean {
    let start = at - 5;
    if (bytes[at - 1] === 0x20) start--;
    if (!matchesAt(bytes, start, DATA)) return false;
    if (start === 0) return lineStart;
    const before = bytes[start - 1];
    return before === 0x0a || before === 0x0d;
  }
}
