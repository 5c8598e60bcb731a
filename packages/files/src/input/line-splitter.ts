/** Where the lines a {@link LineSplitter} finds go. */
export interface LineSink {
  /**
   * A complete line. `raw` holds its bytes with the terminator; `contentEnd` is where the content ends (before a
   * `\r\n` or `\n`; equal to `raw.length` for a last line without one). `number` counts from 1.
   */
  line(raw: Buffer, contentEnd: number, number: number): void;
  // Consecutive blank lines (spaces, tabs and CRs at most) within one chunk come as one call: `raw` holds them all,
  // `contentEnd` is 0 and `number` is the first one's; the next line's number counts every line of the run. A file
  // of newlines then costs a call per chunk, not one per line.
  /**
   * A line longer than the limit, as its bytes arrive (terminator included), so it can be passed through without
   * ever being held in memory whole. `done` is true on its last piece.
   */
  overlong(bytes: Buffer, number: number, first: boolean, done: boolean): void;
}

/**
 * Splits a byte stream into lines without decoding it: lines are found by their `\n` byte, so invalid UTF-8 and
 * `\r\n` endings pass through exactly as they came. A line within one chunk is a view of that chunk (no copy); a
 * line longer than `maxLineBytes` is streamed to {@link LineSink.overlong} piece by piece, so memory stays flat.
 *
 * @example
 * const lines: string[] = [];
 * const splitter = new LineSplitter({
 *   maxLineBytes: 1024,
 *   sink: { line: (raw, end) => lines.push(raw.toString("utf8", 0, end)), overlong: () => {} },
 * });
 * splitter.push(Buffer.from("a\r\nb"));
 * splitter.end(); // lines: ["a", "b"]
 */
export class LineSplitter {
  private readonly maxLineBytes: number;
  private readonly sink: LineSink;
  private carry: Buffer[] = [];
  private carryLength = 0;
  private inOverlong = false;
  private lineNumber = 1;

  constructor(options: { maxLineBytes: number; sink: LineSink }) {
    this.maxLineBytes = options.maxLineBytes;
    this.sink = options.sink;
  }

  /** The number of the line being read (1-based); after {@link end}, one more than the lines seen. */
  get currentLine(): number {
    return this.lineNumber;
  }

  push(chunk: Buffer): void {
    let start = 0;
    const length = chunk.length;
    while (start < length) {
      if (!this.inOverlong && this.carryLength === 0) {
        const run = this.blankRun(chunk, start);
        if (run.lines > 1) {
          this.sink.line(chunk.subarray(start, run.end), 0, this.lineNumber);
          this.lineNumber += run.lines;
          start = run.end;
          continue;
        }
      }
      const newline = chunk.indexOf(10, start);
      if (this.inOverlong) {
        const done = newline !== -1;
        this.sink.overlong(chunk.subarray(start, done ? newline + 1 : length), this.lineNumber, false, done);
        if (!done) return;
        this.inOverlong = false;
        this.lineNumber++;
        start = newline + 1;
        continue;
      }
      if (newline === -1) {
        const rest = chunk.subarray(start);
        if (this.carryLength + rest.length > this.maxLineBytes) {
          this.startOverlong(rest, false);
        } else {
          this.carry.push(rest);
          this.carryLength += rest.length;
        }
        return;
      }
      const piece = chunk.subarray(start, newline + 1);
      const raw = this.carryLength === 0 ? piece : this.takeCarry(piece);
      let contentEnd = raw.length - 1;
      if (contentEnd > 0 && raw[contentEnd - 1] === 13) contentEnd--;
      if (contentEnd > this.maxLineBytes) {
        this.sink.overlong(raw, this.lineNumber, true, true);
      } else {
        this.sink.line(raw, contentEnd, this.lineNumber);
      }
      this.lineNumber++;
      start = newline + 1;
    }
  }

  /** The input ended: a last line without a terminator is emitted as it is. */
  end(): void {
    if (this.inOverlong) {
      this.sink.overlong(Buffer.alloc(0), this.lineNumber, false, true);
      this.inOverlong = false;
      this.lineNumber++;
      return;
    }
    if (this.carryLength > 0) {
      const raw = this.takeCarry(undefined);
      this.sink.line(raw, raw.length, this.lineNumber);
      this.lineNumber++;
    }
  }

  /** The blank lines that begin at `start` (each within the limit): where they end and how many there are. */
  private blankRun(chunk: Buffer, start: number): { end: number; lines: number } {
    let end = start;
    let lines = 0;
    let lineStart = start;
    for (let at = start; at < chunk.length; at++) {
      const byte = chunk[at];
      if (byte === 10) {
        if (at - lineStart > this.maxLineBytes) break;
        lines++;
        end = at + 1;
        lineStart = end;
      } else if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) break;
    }
    return { end, lines };
  }

  private startOverlong(rest: Buffer, done: boolean): void {
    // The pieces held so far go out as they are, never joined: a line too long to hold is never copied whole.
    const pieces = [...this.carry, rest];
    this.carry = [];
    this.carryLength = 0;
    this.inOverlong = !done;
    pieces.forEach((piece, index) => {
      this.sink.overlong(piece, this.lineNumber, index === 0, done && index === pieces.length - 1);
    });
  }

  private takeCarry(tail: Buffer | undefined): Buffer {
    if (tail !== undefined) this.carry.push(tail);
    const joined = Buffer.concat(this.carry, this.carryLength + (tail?.length ?? 0));
    this.carry = [];
    this.carryLength = 0;
    return joined;
  }
}
