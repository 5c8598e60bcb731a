import { constants, isUtf8 } from "node:buffer";
import { parseJson } from "@toolcall/core";
import { plainJsonError } from "./document-text.js";
import type { InputIssue } from "./input-issue.js";
import { LineSplitter } from "./line-splitter.js";

/**
 * How the input is framed: one JSON document, JSON Lines of records (streamed), a whole file of JSON lines that
 * together hold one session, or server-sent events (`data:` lines of a stream log).
 *
 * @example
 * const { summary } = await processFile({ source, pool, context, handler, maxLineBytes });
 * summary.framing; // "jsonl"
 */
export type InputFormat = "json" | "jsonl" | "session" | "sse";

/** A JSONL line that holds a JSON value. */
export interface JsonLine {
  number: number;
  /** The line's bytes, terminator included, exactly as read. */
  raw: Buffer;
  /** Where the content ends in `raw` (before `\r\n` or `\n`). */
  contentEnd: number;
  /** The line began with a UTF-8 byte-order mark (only ever line 1); `text` is without it. */
  bom: boolean;
  text: string;
  value: unknown;
}

/** A JSONL line that holds no JSON value; `raw` is absent for a line too long to hold (see `overlong`). */
export interface UnreadableLine {
  number: number;
  raw?: Buffer;
  issue: InputIssue;
}

/** A whole input (a JSON document, a session, a stream log): its bytes, decided as UTF-8 by the consumer. */
export interface WholeInput {
  format: "json" | "session" | "sse";
  raw: Buffer;
}

/** What {@link scanInput} reports, in input order. Callbacks are synchronous; `afterChunk` may wait (backpressure). */
export interface ScanVisitor {
  format?(format: InputFormat): void;
  /** Decides, from the values of the first lines, whether a JSONL file is one session (read whole). */
  isSession?(values: readonly unknown[]): boolean;
  /** True for a value that is a record of a known format (a broken first line then a record is JSONL). */
  isRecord?(value: unknown): boolean;
  jsonLine?(line: JsonLine): void;
  /**
   * Every JSONL line as bytes, unparsed, once the input is known to be JSONL: for a consumer that parses lines
   * elsewhere (worker threads). Then neither `jsonLine`, `unreadableLine` for bad lines, nor `blankLine` is called.
   */
  rawLine?(raw: Buffer, contentEnd: number, number: number): void;
  unreadableLine(line: UnreadableLine): void;
  /** An empty or whitespace-only line. */
  blankLine(raw: Buffer, number: number): void;
  /** The bytes of a line longer than the limit, piece by piece (its `unreadableLine` comes first). */
  overlong(bytes: Buffer, number: number, done: boolean): void;
  whole(input: WholeInput): void;
  /** Called after each chunk of input: the place to wait for a slow output. */
  afterChunk?(progress: { bytes: number; lines: number }): Promise<void> | undefined;
}

export interface ScanSummary {
  format: InputFormat;
  bytes: number;
  /** Lines read (JSONL), or 0 for a whole input. */
  lines: number;
  unreadableLines: number;
  /**
   * The most pieces of lines held at once while the framing was undecided (a run of blank lines counts once): a
   * count of what memory holds, which stays small however many lines the input has.
   */
  peakHeldLines: number;
}

/** `ok: false`: the input as a whole cannot be read (exit 2); what was reported before still stands. */
export type ScanResult =
  | { ok: true; summary: ScanSummary }
  | { ok: false; issue: InputIssue; summary: ScanSummary };

type LineParse = { ok: true; text: string; value: unknown; bom: boolean } | { ok: false; issue: InputIssue };

type Pending =
  | { kind: "line"; raw: Buffer; contentEnd: number; number: number; parsed?: LineParse }
  | { kind: "overlong"; bytes: Buffer; number: number; first: boolean; done: boolean };

/** Lines read before deciding whether a JSONL file is one session. */
const SESSION_SAMPLE = 8;

/**
 * Bytes held while the framing is undecided and no more is coming to decide it (blank lines before the first value,
 * or before the values that decide whether JSONL is a session): past them, what was read decides. A JSON document
 * does not begin with 16 MiB of blank lines; a gzip bomb of newlines does.
 */
export const UNDECIDED_HOLD_BYTES = 16 * 1024 * 1024;

function isBlank(raw: Buffer, end: number): boolean {
  for (let i = 0; i < end; i++) {
    const c = raw[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** The first bytes of a server-sent event line (`data:`, `event:`, `id:`, `retry:`, or a `:` comment). */
function isEventLine(raw: Buffer, end: number): boolean {
  let start = 0;
  if (raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf) start = 3;
  const head = raw.toString("latin1", start, Math.min(end, start + 6));
  return /^(data:|event:|id:|retry:|:)/.test(head);
}

/**
 * Reads one line as JSON: bytes that are not UTF-8 and text that is not JSON (RFC 8259, nesting limited as core
 * limits it) are reported, never guessed at.
 */
function parseLine(raw: Buffer, contentEnd: number, number: number): LineParse {
  const content = raw.subarray(0, contentEnd);
  if (!isUtf8(content)) {
    return {
      ok: false,
      issue: { code: "line_invalid_utf8", message: "the line holds bytes that are not UTF-8" },
    };
  }
  let text = content.toString("utf8");
  const bom = number === 1 && text.charCodeAt(0) === 0xfeff;
  if (bom) text = text.slice(1);
  const parsed = parseJson(text);
  if (!parsed.success)
    return { ok: false, issue: { code: "line_invalid_json", message: plainJsonError(parsed.error) } };
  return { ok: true, text, value: parsed.value, bom };
}

/**
 * Reads an input and tells how it is framed without being told. The first non-blank lines decide: `data:` or
 * `event:` lines are a stream log (server-sent events, read whole); JSONL when the first is JSON on its own (a
 * one-line file is JSONL with one line) or, when the first is broken, the second is a record; otherwise one JSON document
 * (pretty-printed JSON never has a complete value on its first line). A JSONL file whose first lines the consumer
 * recognizes as a session (`isSession`) is read whole; other JSONL is streamed: memory holds one chunk and one line,
 * and a line longer than `maxLineBytes` is streamed through `overlong`.
 *
 * @example
 * const result = await scanInput({ chunks: source.chunks, maxLineBytes: 1 << 28, visitor });
 * if (!result.ok) console.error(result.issue.message);
 */
export async function scanInput(options: {
  chunks: AsyncIterable<Buffer>;
  maxLineBytes: number;
  visitor: ScanVisitor;
}): Promise<ScanResult> {
  const { visitor } = options;
  // An object, not a variable: the format is decided inside callbacks, which flow analysis does not follow.
  const phase: { state: "detecting" | "sampling" | InputFormat } = { state: "detecting" };
  let pending: Pending[] = [];
  let nonBlank = 0;
  let chunks: Buffer[] = [];
  const samples: unknown[] = [];
  const summary: ScanSummary = {
    format: "jsonl",
    bytes: 0,
    lines: 0,
    unreadableLines: 0,
    peakHeldLines: 0,
  };

  const handleLine = (raw: Buffer, contentEnd: number, number: number, cached?: LineParse) => {
    if (visitor.rawLine !== undefined) {
      visitor.rawLine(raw, contentEnd, number);
      return;
    }
    if (isBlank(raw, contentEnd)) {
      visitor.blankLine(raw, number);
      return;
    }
    const parsed = cached ?? parseLine(raw, contentEnd, number);
    if (!parsed.ok) {
      summary.unreadableLines++;
      visitor.unreadableLine({ number, raw, issue: parsed.issue });
      return;
    }
    visitor.jsonLine?.({ number, raw, contentEnd, bom: parsed.bom, text: parsed.text, value: parsed.value });
  };

  const handleOverlong = (bytes: Buffer, number: number, first: boolean, done: boolean) => {
    if (first) {
      summary.unreadableLines++;
      visitor.unreadableLine({
        number,
        issue: {
          code: "line_too_long",
          message: `the line is longer than ${options.maxLineBytes} bytes (it is passed through unread; --max-line-bytes)`,
        },
      });
    }
    visitor.overlong(bytes, number, done);
  };

  const decide = (format: InputFormat) => {
    phase.state = format;
    summary.format = format;
    visitor.format?.(format);
    if (format === "jsonl") {
      chunks = [];
      const replay = pending;
      pending = [];
      for (const item of replay) {
        if (item.kind === "line") handleLine(item.raw, item.contentEnd, item.number, item.parsed);
        else handleOverlong(item.bytes, item.number, item.first, item.done);
      }
    } else {
      pending = [];
    }
  };

  /** JSONL is decided: is it one session? Sample the first values, then decide. */
  const sample = () => {
    if (visitor.isSession === undefined) {
      decide("jsonl");
      return;
    }
    phase.state = "sampling";
  };
  const sampled = (final: boolean) => {
    if (phase.state !== "sampling") return;
    if (!final && samples.length < SESSION_SAMPLE) return;
    decide(visitor.isSession?.(samples) === true ? "session" : "jsonl");
  };

  /** Consecutive blank lines of one buffer, held as one view: a file of newlines costs a few pieces per chunk. */
  let blankRun: { raw: Buffer; number: number } | undefined;
  const endBlankRun = () => {
    const run = blankRun;
    if (run === undefined) return;
    blankRun = undefined;
    // A run is one blank "line" whose content is empty: every byte of it is kept as it came.
    lineOf(run.raw, 0, run.number);
  };
  const lineOf = (raw: Buffer, contentEnd: number, number: number) => {
    if (phase.state === "jsonl") {
      handleLine(raw, contentEnd, number);
      return;
    }
    if (phase.state === "json" || phase.state === "session" || phase.state === "sse") return;
    const item: Pending = { kind: "line", raw, contentEnd, number };
    pending.push(item);
    if (pending.length > summary.peakHeldLines) summary.peakHeldLines = pending.length;
    if (isBlank(raw, contentEnd)) return;
    if (phase.state === "sampling") {
      item.parsed = parseLine(raw, contentEnd, number);
      if (item.parsed.ok) samples.push(item.parsed.value);
      sampled(false);
      return;
    }
    nonBlank++;
    if (nonBlank === 1 && isEventLine(raw, contentEnd)) {
      decide("sse");
      return;
    }
    item.parsed = parseLine(raw, contentEnd, number);
    if (item.parsed.ok) samples.push(item.parsed.value);
    if (nonBlank === 1) {
      if (item.parsed.ok) sample();
    } else if (item.parsed.ok && (visitor.isRecord?.(item.parsed.value) ?? true)) {
      sample();
    } else {
      decide("json");
    }
    sampled(false);
  };

  const splitter = new LineSplitter({
    maxLineBytes: options.maxLineBytes,
    sink: {
      line(raw, contentEnd, number) {
        if (isBlank(raw, contentEnd)) {
          const run = blankRun;
          if (
            run !== undefined &&
            run.raw.buffer === raw.buffer &&
            run.raw.byteOffset + run.raw.length === raw.byteOffset
          ) {
            run.raw = Buffer.from(run.raw.buffer, run.raw.byteOffset, run.raw.length + raw.length);
            return;
          }
          endBlankRun();
          blankRun = { raw, number };
          return;
        }
        endBlankRun();
        lineOf(raw, contentEnd, number);
      },
      overlong(bytes, number, first, done) {
        endBlankRun();
        if (phase.state === "jsonl") {
          handleOverlong(bytes, number, first, done);
          return;
        }
        if (phase.state === "json" || phase.state === "session" || phase.state === "sse") return;
        pending.push({ kind: "overlong", bytes, number, first, done });
        decide("jsonl");
      },
    },
  });

  for await (const chunk of options.chunks) {
    summary.bytes += chunk.length;
    if (phase.state !== "jsonl") chunks.push(chunk);
    if (phase.state !== "json" && phase.state !== "session" && phase.state !== "sse") {
      splitter.push(chunk);
      endBlankRun();
      // Nothing decided yet and only blank lines coming: what was read decides, so memory stays bounded.
      if (summary.bytes > UNDECIDED_HOLD_BYTES) {
        if (phase.state === "sampling") sampled(true);
        else if (phase.state === "detecting" && nonBlank === 0) decide("jsonl");
      }
    }
    summary.lines = splitter.currentLine - 1;
    const waiting = visitor.afterChunk?.({ bytes: summary.bytes, lines: summary.lines });
    if (waiting !== undefined) await waiting;
  }
  if (phase.state === "detecting" || phase.state === "sampling" || phase.state === "jsonl") {
    splitter.end();
    endBlankRun();
  }
  if (phase.state === "sampling") sampled(true);
  if (phase.state === "detecting") decide(nonBlank === 0 ? "jsonl" : "json");
  summary.lines = phase.state === "jsonl" ? splitter.currentLine - 1 : 0;
  if (phase.state === "jsonl") return { ok: true, summary };

  const total = summary.bytes;
  if (phase.state === "json" && total > constants.MAX_STRING_LENGTH) {
    return {
      ok: false,
      issue: {
        code: "input_too_large",
        message: `${total} bytes: too large for one JSON document; use JSONL`,
      },
      summary,
    };
  }
  const raw = Buffer.concat(chunks, total);
  chunks = [];
  visitor.whole({ format: phase.state as WholeInput["format"], raw });
  return { ok: true, summary };
}

/**
 * A few words on what a JSON value is, for messages about values in no known format.
 *
 * @example
 * describeValue(42); // "a number"
 * describeValue({ id: 1 }); // "an object with keys id"
 */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value))
    return value.length === 0
      ? "an empty array"
      : `an array of ${describeValue(value[0]).replace(/^an? /, "")}s`;
  switch (typeof value) {
    case "object": {
      const keys = Object.keys(value as object);
      return keys.length === 0
        ? "an empty object"
        : `an object with keys ${keys.slice(0, 5).join(", ")}${keys.length > 5 ? ", …" : ""}`;
    }
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    default:
      return typeof value;
  }
}
