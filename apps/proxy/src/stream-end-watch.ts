import type { RepairedApi } from "./repair-json-response.js";

const ascii = (text: string): Buffer => Buffer.from(text, "latin1");

/** Bytes kept from the end of one piece, so a marker split across two pieces is still found. */
const CARRY = 32;
const FINISH_REASON = ascii('"finish_reason"');
const TERMINAL_EVENTS = ['"response.completed"', '"response.incomplete"', '"response.failed"'].map(ascii);
const DONE = ascii("[DONE]");
const DATA = ascii("data:");
/** What a body starts after: a line break (one shared view, never written: no buffer made per stream). */
const LINE_START = ascii("\n");

function matchesAt(bytes: Uint8Array, at: number, needle: Uint8Array): boolean {
  if (at < 0 || at + needle.length > bytes.length) return false;
  for (let i = 0; i < needle.length; i++) if (bytes[at + i] !== needle[i]) return false;
  return true;
}

/** The last {@link CARRY} bytes of what came before (a view). */
const carryOf = (before: Buffer): Buffer =>
  before.length > CARRY ? before.subarray(before.length - CARRY) : before;

/** The needles' bytes found first, each once in its needle: `_` of `"finish_reason"`, `D` of `[DONE]`. */
const FINISH_ANCHOR = FINISH_REASON.indexOf(0x5f);
const DONE_ANCHOR = DONE.indexOf(0x44);

/**
 * `bytes.lastIndexOf(needle)` among the starts at or before `last`, found by the needle's byte at `anchor` (a byte
 * it holds once) with the native one-byte search: a JSON chunk holds few of them, and a one-byte search costs a
 * fraction of a search for the needle (each candidate is compared; the starts found go down, so each byte is looked
 * at a bounded number of times).
 */
function lastIndexOfAnchored(bytes: Buffer, needle: Uint8Array, anchor: number, last = bytes.length): number {
  if (last < 0) return -1;
  const anchorByte = needle[anchor] as number;
  for (
    let found = bytes.lastIndexOf(anchorByte, Math.min(last + anchor, bytes.length - 1));
    found !== -1;
    found = found === 0 ? -1 : bytes.lastIndexOf(anchorByte, found - 1)
  )
    if (matchesAt(bytes, found - anchor, needle)) return found - anchor;
  return -1;
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
  /**
   * What came before, ending with the last piece (a line break at first: the body starts a line): its last
   * {@link CARRY} bytes are the carry, cut only when a seam is searched (a piece that ends a line needs none).
   */
  #before: Buffer = LINE_START;
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
    const before = this.#before;
    const last = before[before.length - 1];
    const lineStart = last === 0x0a || last === 0x0d;
    // A marker may be split across the two pieces (none holds a line break): the seam is searched first.
    if (!lineStart) this.#scan(Buffer.concat([carryOf(before), bytes.subarray(0, CARRY)]), false);
    if (!this.#ended) this.#scan(bytes, lineStart);
    this.#before = bytes.length >= CARRY ? bytes : Buffer.concat([carryOf(before), bytes]);
  }

  /**
   * Looks for the markers in `bytes` (what came after what was searched before, or a seam around it). `lineStart`:
   * `bytes` starts a line. A marker in a seam may be seen twice: it only says the same.
   */
  #scan(bytes: Buffer, lineStart: boolean): void {
    if (this.#chat) {
      const at = lastIndexOfAnchored(bytes, FINISH_REASON, FINISH_ANCHOR);
      if (at !== -1) this.#lastFinish = this.#hasValue(bytes, at + FINISH_REASON.length);
    } else
      for (const needle of TERMINAL_EVENTS)
        if (bytes.lastIndexOf(needle) !== -1) {
          this.#ended = true;
          return;
        }
    for (
      let at = lastIndexOfAnchored(bytes, DONE, DONE_ANCHOR);
      at !== -1;
      at = lastIndexOfAnchored(bytes, DONE, DONE_ANCHOR, at - 1)
    )
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
