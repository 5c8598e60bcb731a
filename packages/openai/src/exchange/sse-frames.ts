import { asciiBytes } from "./bytes.js";

const LF = 0x0a;
const CR = 0x0d;
const NONE: readonly [number, number] = [-1, -1];
const EVENT = asciiBytes("event:");
const DATA = asciiBytes("data:");
const ERROR_KEY = asciiBytes('"error"');
const ERROR_OBJECT = asciiBytes('"object":"error"');

/** Whether `bytes` holds `part` at `at`. */
function startsWith(bytes: Uint8Array, at: number, part: Uint8Array): boolean {
  if (at + part.length > bytes.length) return false;
  for (let k = 0; k < part.length; k++) if (bytes[at + k] !== part[k]) return false;
  return true;
}

/** `bytes[i]`, or one of the two bytes `before` it when `i` lies before `from`. */
function byteAt(bytes: Uint8Array, i: number, from: number, before: readonly [number, number]): number {
  return i >= from ? (bytes[i] as number) : i === from - 1 ? before[1] : before[0];
}

/** One server-sent event read from its bytes (WHATWG's event stream format). */
export interface SseFrame {
  /** The `event` field, when there is one. */
  event: string | undefined;
  /** The `data` lines joined by `\n`; `undefined` when the frame has none (a comment, a `retry`). */
  data: string | undefined;
  /** The other field lines (`id: …`, `retry: …`), as they came, to write again with new data. */
  fields: string[];
}

/**
 * Finds where the events in an SSE byte stream end, keeping their bytes: the parts that need no reading go on
 * untouched. Lines end with LF, CRLF or a lone CR (the stream's first line ending decides which, as servers keep
 * one); an event ends at a blank line.
 *
 * @example
 * const frames = new SseFrames();
 * frames.lastEnd(utf8("data: 1\n\ndata: 2")); // 9: the first event is whole, the second is not yet
 */
export class SseFrames {
  /** The byte lines end with: LF (and CRLF) unless the stream's first line ended with a lone CR. */
  #terminator = 0;
  /** Where the event {@link nextEnd} last read starts, and its first line break (for {@link plainObject}). */
  #eventStart = -1;
  #firstBreak = -1;

  #detect(bytes: Uint8Array): number {
    if (this.#terminator !== 0) return this.#terminator;
    const lf = bytes.indexOf(LF);
    const cr = bytes.indexOf(CR);
    if (cr !== -1 && (lf === -1 || cr < lf) && cr + 1 < bytes.length && bytes[cr + 1] !== LF)
      this.#terminator = CR;
    else if (lf !== -1) this.#terminator = LF;
    return this.#terminator === 0 ? LF : this.#terminator;
  }

  /**
   * Whether the line ending at `at` (the terminator's index) is blank: the byte before it is a terminator too (or
   * CR after LF, for CRLF). `before` are the two bytes before `bytes[0]` (-1 where there are none).
   */
  #blank(
    bytes: Uint8Array,
    at: number,
    terminator: number,
    before: readonly [number, number],
    from = 0,
  ): boolean {
    const previous = byteAt(bytes, at - 1, from, before);
    if (previous === terminator) return true;
    return terminator === LF && previous === CR && byteAt(bytes, at - 2, from, before) === LF;
  }

  /**
   * The index just past the last whole event in `bytes` (0 when none ends in it). `before` are the last two bytes
   * of what came before `bytes` (-1 where there are none): a blank line may begin there. Reads each byte once.
   */
  lastEnd(bytes: Uint8Array, before: readonly [number, number] = [-1, -1]): number {
    const terminator = this.#detect(bytes);
    for (
      let at = bytes.lastIndexOf(terminator);
      at >= 0;
      at = at === 0 ? -1 : bytes.lastIndexOf(terminator, at - 1)
    ) {
      if (this.#blank(bytes, at, terminator, before)) return at + 1;
    }
    return 0;
  }

  /**
   * The index just past the first blank line in `bytes` (0 when there is none). `before` are the last two bytes of
   * what came before `bytes`: a blank line may begin there.
   */
  firstEnd(bytes: Uint8Array, before: readonly [number, number] = NONE): number {
    const terminator = this.#detect(bytes);
    for (let at = bytes.indexOf(terminator); at !== -1; at = bytes.indexOf(terminator, at + 1))
      if (this.#blank(bytes, at, terminator, before)) return at + 1;
    return 0;
  }

  /**
   * Whether the whole event `bytes[from, to)` (as {@link nextEnd} found it) plainly holds one JSON object that is not
   * an error: an optional `event:` line, then one `data:` line whose value starts with `{` (not followed by an
   * `"error"` key or `"object":"error"`) and ends with `}`, then its blank line. Byte looks only, no decoding: what a reader that checks every event can leave unread (such an event may still be
   * malformed inside its braces; a client's own parser finds that).
   */
  plainObject(bytes: Uint8Array, from: number, to: number): boolean {
    let at = from;
    // The data line ends at the event's first line break, which nextEnd found.
    let lineEnd = this.#eventStart === from ? this.#firstBreak : -1;
    if (bytes[at] === 0x65 && startsWith(bytes, at, EVENT)) {
      at = bytes.indexOf(this.#detect(bytes), at);
      if (at === -1 || at >= to) return false;
      at++;
      lineEnd = -1;
    }
    if (!startsWith(bytes, at, DATA)) return false;
    at += DATA.length;
    if (bytes[at] === 0x20) at++;
    if (bytes[at] !== 0x7b) return false;
    // An error a server put in the stream (`{"error": …}`, vLLM's `{"object":"error", …}`) is read.
    let key = at + 1;
    while (bytes[key] === 0x20) key++;
    if (startsWith(bytes, key, ERROR_KEY) || startsWith(bytes, key, ERROR_OBJECT)) return false;
    if (lineEnd === -1) lineEnd = bytes.indexOf(this.#terminator === CR ? CR : LF, at);
    if (lineEnd === -1 || lineEnd >= to) return false;
    let last = lineEnd - 1;
    if (bytes[last] === CR) last--;
    if (bytes[last] !== 0x7d) return false;
    // Only line breaks (the blank line) may follow.
    for (let k = lineEnd; k < to; k++) if (bytes[k] !== LF && bytes[k] !== CR) return false;
    return true;
  }

  /** The index just past the event that starts at `from`, or -1 when it is not whole before `to`. */
  nextEnd(bytes: Uint8Array, from: number, to: number): number {
    const terminator = this.#detect(bytes);
    const first = bytes.indexOf(terminator, from);
    this.#eventStart = from;
    this.#firstBreak = first;
    // The common event, one line and its blank line (`…\n\n`), without a second search.
    if (first !== -1 && first + 1 < to && bytes[first + 1] === terminator && first !== from) return first + 2;
    for (let at = first; at !== -1 && at < to; at = bytes.indexOf(terminator, at + 1)) {
      if (at === from || this.#blank(bytes, at, terminator, NONE, from)) return at + 1;
    }
    return -1;
  }
}

/**
 * Reads one event's fields from its text (comments skipped; a single space after the colon dropped).
 *
 * @example
 * parseSseFrame("event: response.created\ndata: {}\n\n"); // { event: "response.created", data: "{}", fields: [] }
 */
export function parseSseFrame(text: string): SseFrame {
  // The common event: one `data: ` line and its blank line.
  if (text.startsWith("data: ")) {
    const end = text.indexOf("\n");
    if (
      end !== -1 &&
      end === text.length - 2 &&
      text.charCodeAt(end + 1) === 0x0a &&
      text.charCodeAt(end - 1) !== 0x0d
    )
      return { event: undefined, data: text.slice(6, end), fields: [] };
  }
  let event: string | undefined;
  let data: string | undefined;
  const fields: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === "" || line.charCodeAt(0) === 0x3a) continue;
    const colon = line.indexOf(":");
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    if (name === "data") data = data === undefined ? value : `${data}\n${value}`;
    else if (name === "event") event = value;
    else fields.push(line);
  }
  return { event, data, fields };
}

/**
 * The text of an event with the given fields and data (each data line its own `data:` line).
 *
 * @example
 * writeSseFrame({ event: "error", data: "{}", fields: [] }); // "event: error\ndata: {}\n\n"
 */
export function writeSseFrame(frame: SseFrame): string {
  let text = frame.event === undefined ? "" : `event: ${frame.event}\n`;
  for (const field of frame.fields) text += `${field}\n`;
  if (frame.data !== undefined) for (const line of frame.data.split("\n")) text += `data: ${line}\n`;
  return `${text}\n`;
}
