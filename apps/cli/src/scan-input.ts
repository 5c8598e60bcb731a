import { constants, isUtf8 } from "node:buffer";
import { parseJson } from "@toolcall/core";
import { type Conversation, isConversationList, toConversation } from "./conversation.js";
import type { InputIssue } from "./input-issue.js";
import { LineSplitter } from "./line-splitter.js";

/** How the input was written: one JSON document, or JSON Lines (one conversation per line). */
export type InputFormat = "json" | "jsonl";

/** A JSONL line that holds a conversation. */
export interface ConversationLine {
  number: number;
  /** The line's bytes, terminator included, exactly as read. */
  raw: Buffer;
  /** Where the content ends in `raw` (before `\r\n` or `\n`). */
  contentEnd: number;
  /** The line began with a UTF-8 byte-order mark (only ever line 1); `text` is without it. */
  bom: boolean;
  text: string;
  value: unknown;
  conversation: Conversation;
}

/** A JSONL line that holds no conversation; `raw` is absent for a line too long to hold (see `overlong`). */
export interface UnreadableLine {
  number: number;
  raw?: Buffer;
  issue: InputIssue;
}

/** A whole JSON document that holds a conversation. */
export interface JsonDocument {
  raw: Buffer;
  bom: boolean;
  text: string;
  value: unknown;
  conversation: Conversation;
}

/** What {@link scanInput} reports, in input order. Callbacks are synchronous; `afterChunk` may wait (backpressure). */
export interface ScanVisitor {
  format?(format: InputFormat): void;
  conversationLine(line: ConversationLine): void;
  unreadableLine(line: UnreadableLine): void;
  /** An empty or whitespace-only line. */
  blankLine(raw: Buffer, number: number): void;
  /** The bytes of a line longer than the limit, piece by piece (its `unreadableLine` comes first). */
  overlong(bytes: Buffer, number: number, done: boolean): void;
  document(document: JsonDocument): void;
  /** Called after each chunk of input: the place to wait for a slow output. */
  afterChunk?(progress: { bytes: number; lines: number }): Promise<void> | undefined;
}

export interface ScanSummary {
  format: InputFormat;
  bytes: number;
  /** Lines read (JSONL), or 0 for a JSON document. */
  lines: number;
  conversations: number;
  unreadableLines: number;
}

/** `ok: false`: the input as a whole holds no conversation (exit 2); what was reported before still stands. */
export type ScanResult =
  | { ok: true; summary: ScanSummary }
  | { ok: false; issue: InputIssue; summary: ScanSummary };

type LineParse = { ok: true; text: string; value: unknown; bom: boolean } | { ok: false; issue: InputIssue };

type Pending =
  | { kind: "line"; raw: Buffer; contentEnd: number; number: number; parsed?: LineParse }
  | { kind: "overlong"; bytes: Buffer; number: number; first: boolean; done: boolean };

function isBlank(raw: Buffer, end: number): boolean {
  for (let i = 0; i < end; i++) {
    const c = raw[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
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
  if (!parsed.ok) return { ok: false, issue: { code: "line_invalid_json", message: parsed.error } };
  return { ok: true, text, value: parsed.value, bom };
}

/**
 * A few words on what a JSON value is, for messages about values that are not conversations.
 *
 * @example
 * describeValue(42); // "a number"
 * describeValue({ id: 1 }); // "an object without a messages list"
 */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "object":
      return "an object without a messages list";
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

/** Line and column (1-based) of a character offset, for parse errors in JSON documents. */
function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}

/**
 * Reads an input, tells JSON from JSONL without being told, and reports every conversation in order.
 *
 * The format is decided from the first two non-blank lines: JSONL when the first is JSON on its own (a one-line
 * file is JSONL with one line) or, when the first is broken, the second is a conversation; otherwise the input is
 * one JSON document (pretty-printed JSON never has a complete value on its first line). JSONL is streamed: memory
 * holds one chunk and one line, and a line longer than `maxLineBytes` is streamed through `overlong`.
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
  const phase: { state: "detecting" | InputFormat } = { state: "detecting" };
  let pending: Pending[] = [];
  let nonBlank = 0;
  let documentChunks: Buffer[] = [];
  const summary: ScanSummary = { format: "jsonl", bytes: 0, lines: 0, conversations: 0, unreadableLines: 0 };

  const handleLine = (raw: Buffer, contentEnd: number, number: number, cached?: LineParse) => {
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
    const conversation = toConversation(parsed.value);
    if (conversation === undefined) {
      summary.unreadableLines++;
      visitor.unreadableLine({
        number,
        raw,
        issue: {
          code: "line_not_conversation",
          message: `${describeValue(parsed.value)}, not a conversation (a list of messages, or an object with "messages")`,
        },
      });
      return;
    }
    summary.conversations++;
    visitor.conversationLine({
      number,
      raw,
      contentEnd,
      bom: parsed.bom,
      text: parsed.text,
      value: parsed.value,
      conversation,
    });
  };

  const handleOverlong = (bytes: Buffer, number: number, first: boolean, done: boolean) => {
    if (first) {
      summary.unreadableLines++;
      visitor.unreadableLine({
        number,
        issue: {
          code: "line_too_long",
          message: `the line is longer than ${options.maxLineBytes} bytes (raise --max-line-bytes to read it)`,
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
      documentChunks = [];
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

  const splitter = new LineSplitter({
    maxLineBytes: options.maxLineBytes,
    sink: {
      line(raw, contentEnd, number) {
        if (phase.state === "jsonl") {
          handleLine(raw, contentEnd, number);
          return;
        }
        if (phase.state === "json") return;
        const item: Pending = { kind: "line", raw, contentEnd, number };
        pending.push(item);
        if (isBlank(raw, contentEnd)) return;
        nonBlank++;
        item.parsed = parseLine(raw, contentEnd, number);
        if (nonBlank === 1) {
          if (item.parsed.ok) decide("jsonl");
        } else if (item.parsed.ok && toConversation(item.parsed.value) !== undefined) {
          decide("jsonl");
        } else {
          decide("json");
        }
      },
      overlong(bytes, number, first, done) {
        if (phase.state === "jsonl") {
          handleOverlong(bytes, number, first, done);
          return;
        }
        if (phase.state === "json") return;
        pending.push({ kind: "overlong", bytes, number, first, done });
        decide("jsonl");
      },
    },
  });

  for await (const chunk of options.chunks) {
    summary.bytes += chunk.length;
    if (phase.state !== "jsonl") documentChunks.push(chunk);
    if (phase.state !== "json") splitter.push(chunk);
    summary.lines = splitter.currentLine - 1;
    const waiting = visitor.afterChunk?.({ bytes: summary.bytes, lines: summary.lines });
    if (waiting !== undefined) await waiting;
  }
  if (phase.state !== "json") splitter.end();
  summary.lines = phase.state === "json" ? 0 : splitter.currentLine - 1;
  if (phase.state === "detecting") decide(nonBlank === 0 ? "jsonl" : "json");

  if (phase.state === "jsonl") {
    if (nonBlank > 0 && summary.conversations === 0) {
      return {
        ok: false,
        issue: { code: "input_not_conversation", message: "no line of it holds a conversation" },
        summary,
      };
    }
    return { ok: true, summary };
  }

  summary.lines = 0;
  const fail = (issue: InputIssue): ScanResult => ({ ok: false, issue, summary });
  const total = summary.bytes;
  if (total > constants.MAX_STRING_LENGTH) {
    return fail({
      code: "input_too_large",
      message: `${total} bytes: too large for one JSON document; use JSONL`,
    });
  }
  const raw = Buffer.concat(documentChunks, total);
  documentChunks = [];
  if (!isUtf8(raw))
    return fail({ code: "input_invalid_utf8", message: "the file holds bytes that are not UTF-8" });
  let text = raw.toString("utf8");
  const bom = text.charCodeAt(0) === 0xfeff;
  if (bom) text = text.slice(1);
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const position = /position (\d+)/.exec(parsed.error);
    const where = position ? ` (${lineAndColumn(text, Number(position[1]))})` : "";
    return fail({
      code: "input_not_json",
      message: `neither a JSON document nor JSONL: ${parsed.error}${where}`,
    });
  }
  if (isConversationList(parsed.value)) {
    return fail({
      code: "input_conversation_list",
      message: "a JSON array of conversations: give it as JSONL, one per line (for example: jq -c '.[]')",
    });
  }
  const conversation = toConversation(parsed.value);
  if (conversation === undefined) {
    return fail({
      code: "input_not_conversation",
      message: `${describeValue(parsed.value)}, not a conversation (a list of messages, or an object with "messages")`,
    });
  }
  summary.conversations = 1;
  visitor.document({ raw, bom, text, value: parsed.value, conversation });
  return { ok: true, summary };
}
