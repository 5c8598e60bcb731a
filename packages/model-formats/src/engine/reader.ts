import type { WorkCounter, WorkMeter } from "@toolcall/core/kit";
import type { JsonScanner } from "./json-scanner.js";
import type { MarkerSet } from "./marker-set.js";

/** What a parsing step yields when it needs more text than has arrived. */
export const NEED: unique symbol = Symbol("need more text");

/** A resumable parsing step: a generator that yields {@link NEED} until its input suffices, then returns. */
export type Step<T> = Generator<typeof NEED, T, undefined>;

/**
 * Thrown out of a parsing step when the work meter runs out; the stream turns it into a `budget_exhausted` issue
 * and passes the rest of the text on as content. Not an `Error`: no stack to capture.
 */
export const BUDGET_EXHAUSTED: unique symbol = Symbol("work budget exhausted");

export const isSpaceCode = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * The text a family parser reads, arriving piece by piece. Parsers are generators over it: a primitive that runs
 * out of text yields {@link NEED} and resumes where it stopped when the next piece comes, so nothing is read twice
 * and no decision depends on where the text was split. Only a few characters (a marker begun at the end of a piece)
 * are ever kept unread between pieces.
 */
export class Reader {
  /** The unread text of the current piece starts at `pos`. */
  text = "";
  pos = 0;
  /** No more text will come. */
  ended = false;
  /** Where every primitive adds the characters it examines: the caller's counter, and the meter when there is one. */
  readonly #work: WorkCounter | undefined;
  readonly #meter: WorkMeter | undefined;
  #record: string[] | null = null;
  #journal: string[] | null = null;

  constructor(work?: WorkCounter, meter?: WorkMeter) {
    this.#work = work;
    this.#meter = meter;
  }

  feed(delta: string): void {
    this.text = this.pos >= this.text.length ? delta : this.text.slice(this.pos) + delta;
    this.pos = 0;
  }

  close(): void {
    this.ended = true;
  }

  /** No more text will come and all of it is read: what a reader meets now is the text's end, not a cut. */
  get exhausted(): boolean {
    return this.ended && this.pos >= this.text.length;
  }

  /** Adds `n` examined characters to the caller's counter and charges the meter (out of budget: throws). */
  #count(n: number): void {
    if (this.#work !== undefined) this.#work.scanned += n;
    if (this.#meter !== undefined && !this.#meter.charge(n)) throw BUDGET_EXHAUSTED;
  }

  /** Consumes `count` characters (recorded when recording). */
  consume(count: number): string {
    const piece = this.text.slice(this.pos, this.pos + count);
    this.pos += piece.length;
    if (piece !== "") {
      if (this.#record !== null) this.#record.push(piece);
      if (this.#journal !== null) this.#journal.push(piece);
    }
    return piece;
  }

  /**
   * The safety net's record: what a call reader has consumed since its marker (`start`), minus what it already
   * committed (a call ended, text sent back); if a parser step ever throws, this text goes to content with the rest,
   * so an internal failure loses nothing the model wrote.
   */
  journalStart(marker: string): void {
    this.#journal = marker === "" ? [] : [marker];
  }

  /** What the journal holds is out (a call ended, or went back to content): start it afresh. */
  journalCommit(): void {
    if (this.#journal !== null) this.#journal = [];
  }

  journalEnd(): void {
    this.#journal = null;
  }

  /** The journal's text, or the recording's when no journal runs (see {@link journalStart}). */
  takeUncommitted(): string {
    const text = (this.#journal ?? this.#record)?.join("") ?? "";
    this.#journal = null;
    this.#record = null;
    return text;
  }

  /** Starts recording what is consumed (the raw text of a call, kept in case it must go back to content). */
  record(): void {
    this.#record = [];
  }

  /** The text consumed since {@link record}; recording stops. */
  takeRecord(): string {
    const text = this.#record?.join("") ?? "";
    this.#record = null;
    return text;
  }

  /**
   * Consumes text up to and including the first marker of `set`, passing the text before it to `sink` as it is
   * known not to start a marker. Returns the marker, or `null` at the end of the text (all of it passed to `sink`).
   */
  *until(set: MarkerSet, sink: (text: string) => void): Step<string | null> {
    const marker = yield* this.before(set, sink);
    if (marker !== null) this.consume(marker.length);
    return marker;
  }

  /** Passes everything left, up to the end of the text, to `sink`. */
  *rest(sink: (text: string) => void): Step<void> {
    for (;;) {
      this.#count(this.text.length - this.pos);
      if (this.pos < this.text.length) sink(this.consume(this.text.length - this.pos));
      if (this.ended) return;
      yield NEED;
    }
  }

  /** Consumes text up to the first marker of `set` (passing it to `sink`), leaving the marker unread; `null` at the end. */
  *before(set: MarkerSet, sink: (text: string) => void): Step<string | null> {
    for (;;) {
      const at = set.find(this.text, this.pos, this.ended);
      this.#count(set.scanned);
      const marker = set.marker;
      if (marker !== null) {
        if (at > this.pos) sink(this.consume(at - this.pos));
        return marker;
      }
      if (at !== -1) {
        if (at > this.pos) sink(this.consume(at - this.pos));
        yield NEED;
        continue;
      }
      if (this.pos < this.text.length) sink(this.consume(this.text.length - this.pos));
      if (this.ended) return null;
      yield NEED;
    }
  }

  /** The marker of `set` that starts here (waiting until that is known), or `null`. Consumes nothing. */
  *peek(set: MarkerSet): Step<string | null> {
    for (;;) {
      const marker = set.matchAt(this.text, this.pos, this.ended);
      this.#count(Math.min(set.maxLength, this.text.length - this.pos));
      if (!set.partial) return marker;
      yield NEED;
    }
  }

  /** The next character (waiting for it), or `null` at the end of the text. Consumes nothing. */
  *peekChar(): Step<string | null> {
    while (this.pos >= this.text.length) {
      if (this.ended) return null;
      yield NEED;
    }
    return this.text[this.pos] as string;
  }

  /**
   * Looks at the unread text without consuming it, one character at a time from the reader's position, until
   * `visit` returns `false` (that character counts as looked at), `limit` characters were looked at, or the text
   * ends. Returns how many characters it looked at. Each character is looked at once however the text arrives: a
   * piece that comes while it waits is looked at from where it stopped.
   */
  *lookAhead(visit: (code: number) => boolean, limit: number): Step<number> {
    let offset = 0;
    for (;;) {
      const from = offset;
      let stopped = false;
      while (offset < limit && this.pos + offset < this.text.length) {
        const go = visit(this.text.charCodeAt(this.pos + offset));
        offset++;
        if (!go) {
          stopped = true;
          break;
        }
      }
      this.#count(offset - from + 1);
      if (stopped || offset >= limit || this.ended) return offset;
      yield NEED;
    }
  }

  /** Consumes whitespace (space, tab, newline, carriage return) and returns it. */
  *space(): Step<string> {
    let out = "";
    for (;;) {
      let i = this.pos;
      while (i < this.text.length && isSpaceCode(this.text.charCodeAt(i))) i++;
      this.#count(i - this.pos + 1);
      out += this.consume(i - this.pos);
      if (i < this.text.length || this.ended) return out;
      yield NEED;
    }
  }

  /** Consumes the longest prefix of `literal` that the text starts with; returns its length. */
  *prefixOf(literal: string): Step<number> {
    let matched = 0;
    while (matched < literal.length) {
      if (this.pos >= this.text.length) {
        if (this.ended) break;
        yield NEED;
        continue;
      }
      if (this.text[this.pos] !== literal[matched]) break;
      this.consume(1);
      matched++;
    }
    this.#count(matched + 1);
    return matched;
  }

  /** Consumes characters until one of `stops` (single characters) or the end; returns them. */
  *upTo(stops: string, limit = Number.POSITIVE_INFINITY): Step<string> {
    let out = "";
    for (;;) {
      let i = this.pos;
      while (
        i < this.text.length &&
        !stops.includes(this.text[i] as string) &&
        out.length + i - this.pos < limit
      )
        i++;
      this.#count(i - this.pos + 1);
      out += this.consume(i - this.pos);
      if (i < this.text.length || this.ended || out.length >= limit) return out;
      yield NEED;
    }
  }

  /**
   * Feeds text to a JSON scanner until its value is complete (`done`), invalid (`error`: the offending character
   * is left unread) or the text ends (`end`). Consumed text goes to `sink`.
   */
  *json(scanner: JsonScanner, sink: (text: string) => void): Step<"done" | "error" | "end"> {
    for (;;) {
      const state = scanner.feed(this.text, this.pos);
      this.#count(scanner.end - this.pos + 1);
      if (scanner.end > this.pos) sink(this.consume(scanner.end - this.pos));
      if (state !== "more") return state;
      if (this.ended) return "end";
      yield NEED;
    }
  }
}
