import { isAscii, isUtf8 } from "node:buffer";
import { type ConversationFormat, numbersRoundTrip, parseJson } from "@toolcall/core";
import { detectRecordFormat, detectSessionFormat, expectedFormats } from "./formats.js";
import type { InputIssue } from "./input-issue.js";
import type { JournaledOutput } from "./journal.js";
import { detectJsonStyle, type JsonStyle } from "./json-style.js";
import { arrayElementSpans, type Piece, serializeRecord, writePieces } from "./record-writer.js";
import { describeValue, type InputFormat, scanInput } from "./scan-input.js";

/** Where a record is in its file. */
export interface RecordPlace {
  /** The JSONL line (1-based), or the first line of a session. */
  line?: number;
  /** The element of a JSON array of records. */
  index?: number;
}

/** What a record's handler says: a new value to write (or nothing: the record stays as it was). */
export interface RecordOutcome {
  value?: unknown;
  /** The rules that changed it, for the journal. */
  rules?: string[];
}

/** What the driver asks of a command (check, repair) for each record it finds. */
export interface RecordHandler {
  /**
   * One record. `exact()` reads the record again keeping every number's text, for a handler that rewrites it
   * (integers beyond 2^53, `1.0`): `undefined` when the first read loses no number.
   */
  record(
    format: ConversationFormat,
    value: unknown,
    place: RecordPlace,
    exact: () => unknown | undefined,
  ): RecordOutcome | undefined;
  /** A part of the input that holds no record (an unreadable line, a line of no known format). */
  unreadable(place: RecordPlace, issue: InputIssue): void;
  /** The format the input was found to be in (once per format). */
  format?(format: ConversationFormat): void;
}

export interface ProcessSummary {
  framing: InputFormat;
  bytes: number;
  records: number;
}

export type ProcessResult =
  | { ok: true; summary: ProcessSummary }
  | { ok: false; issue: InputIssue; summary: ProcessSummary };

/** Lines of a whole input, each with its terminator, exactly as read. */
function splitLines(raw: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let nl = raw.indexOf(10); nl !== -1; nl = raw.indexOf(10, start)) {
    lines.push(raw.subarray(start, nl + 1));
    start = nl + 1;
  }
  if (start < raw.length) lines.push(raw.subarray(start));
  return lines;
}

/** A line's content (without `\n` or `\r\n`) and its terminator. */
function contentOf(line: Buffer): { content: Buffer; eol: Buffer } {
  let end = line.length;
  if (line[end - 1] === 10) end--;
  if (line[end - 1] === 13) end--;
  return { content: line.subarray(0, end), eol: line.subarray(end) };
}

function withoutBom(text: string): { text: string; bom: boolean } {
  return text.charCodeAt(0) === 0xfeff ? { text: text.slice(1), bom: true } : { text, bom: false };
}

/** The leading and trailing whitespace of a document, kept exactly around a rewritten value. */
function surroundings(text: string): { before: string; after: string } {
  return { before: /^\s*/.exec(text)?.[0] ?? "", after: /\s*$/.exec(text)?.[0] ?? "" };
}

/**
 * Reads an input of any framing (JSONL, one JSON document, a JSON array of records, a session file, a server-sent
 * event log), finds each record's format (or takes `forced`), hands each record to the handler, and writes the
 * output: what the handler leaves alone as its original bytes, what it rewrites in the style it was written in,
 * every replacement journaled. With no `output`, nothing is written (check).
 *
 * @example
 * await processInput({ chunks, maxLineBytes, handler, output });
 */
export async function processInput(options: {
  chunks: AsyncIterable<Buffer>;
  maxLineBytes: number;
  forced?: ConversationFormat;
  handler: RecordHandler;
  output?: JournaledOutput;
  afterChunk?(progress: { bytes: number; lines: number }): Promise<void> | undefined;
}): Promise<ProcessResult> {
  const { forced, handler, output } = options;
  let records = 0;
  let jsonLines = 0;
  let current: ConversationFormat | undefined;
  const announced = new Set<ConversationFormat>();
  const announce = (format: ConversationFormat) => {
    if (announced.has(format)) return;
    announced.add(format);
    handler.format?.(format);
  };
  const recordFormat = (value: unknown): ConversationFormat | undefined => {
    if (forced !== undefined) return forced.unit === "record" ? forced : undefined;
    if (current?.matches(value)) return current;
    const found = detectRecordFormat(value);
    if (found !== undefined) current = found;
    return found;
  };
  /** One record of text `text` (for exact numbers); its rewritten text in `style`, or undefined. */
  const handle = (
    format: ConversationFormat,
    value: unknown,
    text: string,
    place: RecordPlace,
    ascii?: boolean,
    documentStyle?: JsonStyle,
  ): { text: string; rules: string[] } | undefined => {
    records++;
    announce(format);
    const exact = () => {
      if (numbersRoundTrip(text)) return undefined;
      const parsed = parseJson(text, { lossless: true });
      return parsed.ok ? parsed.value : undefined;
    };
    let lossless = false;
    const outcome = handler.record(format, value, place, () => {
      const value = exact();
      if (value !== undefined) lossless = true;
      return value;
    });
    if (outcome?.value === undefined || output === undefined) return undefined;
    const style = documentStyle ?? detectJsonStyle(text, ascii === undefined ? {} : { ascii });
    const written = serializeRecord(outcome.value, style, lossless, place.index === undefined ? 0 : 1);
    if (!written.ok) {
      handler.unreadable(place, { code: "line_not_rewritable", message: written.error });
      return undefined;
    }
    return { text: written.text, rules: outcome.rules ?? [] };
  };
  const placeText = (place: RecordPlace) =>
    place.index !== undefined
      ? `record ${place.index}`
      : place.line !== undefined
        ? `line ${place.line}`
        : "document";

  let failure: InputIssue | undefined;
  // Lines of no known format are reported once some line is a record: a file in which none is gets one clear
  // input_format_unknown instead of a report per line. Held in bounded memory.
  const held: Array<{ place: RecordPlace; issue: InputIssue }> = [];
  let heldOver = 0;
  const formatUnknownLine = (place: RecordPlace, issue: InputIssue) => {
    if (records > 0) handler.unreadable(place, issue);
    else if (held.length < 1000) held.push({ place, issue });
    else heldOver++;
  };
  const releaseHeld = () => {
    for (const { place, issue } of held.splice(0)) handler.unreadable(place, issue);
    if (heldOver > 0) {
      handler.unreadable(
        {},
        { code: "line_format_unknown", message: `${heldOver} more lines in no known format` },
      );
      heldOver = 0;
    }
  };
  const unknownFormat = (value: unknown): InputIssue => ({
    code: "input_format_unknown",
    message: `${describeValue(value)}, in no known format; expected one of: ${expectedFormats()} (or name one with --format)`,
  });

  const scan = await scanInput({
    chunks: options.chunks,
    maxLineBytes: options.maxLineBytes,
    visitor: {
      isSession: (values) =>
        forced !== undefined ? forced.unit === "session" : detectSessionFormat(values) !== undefined,
      isRecord: (value) => (forced !== undefined ? true : detectRecordFormat(value) !== undefined),
      jsonLine(line) {
        jsonLines++;
        const place = { line: line.number };
        const format = recordFormat(line.value);
        if (format === undefined && elementFormatOf(line.value) !== undefined) {
          // One line holding a whole array of records (a data set written by json.dump on one line).
          if (records === 0) releaseHeld();
          recordsOfArray(
            line.value,
            line.text,
            place,
            line.bom ? Buffer.from("\uFEFF", "utf8") : Buffer.alloc(0),
          );
          output?.keep(line.raw.subarray(line.contentEnd));
          return;
        }
        if (format === undefined) {
          formatUnknownLine(place, {
            code: "line_format_unknown",
            message: `${describeValue(line.value)}, in no known format (it is passed through unread)`,
          });
          output?.keep(line.raw);
          return;
        }
        if (records === 0) releaseHeld();
        const rewritten = handle(
          format,
          line.value,
          line.text,
          place,
          isAscii(line.raw.subarray(0, line.contentEnd)),
        );
        if (rewritten === undefined) {
          output?.keep(line.raw);
          return;
        }
        output?.replace(
          line.raw.subarray(0, line.contentEnd),
          Buffer.from(`${line.bom ? "\uFEFF" : ""}${rewritten.text}`, "utf8"),
          { place: placeText(place), rules: rewritten.rules },
        );
        output?.keep(line.raw.subarray(line.contentEnd));
      },
      unreadableLine(line) {
        handler.unreadable({ line: line.number }, line.issue);
        if (line.raw !== undefined) output?.keep(line.raw);
      },
      blankLine(raw) {
        output?.keep(raw);
      },
      overlong(bytes) {
        output?.keep(bytes);
      },
      whole(input) {
        if (input.format === "json") failure = wholeDocument(input.raw);
        else failure = wholeLines(input.raw, input.format);
      },
      afterChunk: options.afterChunk,
    },
  });

  /** One JSON document: a record, or an array of records. */
  function wholeDocument(raw: Buffer): InputIssue | undefined {
    if (!isUtf8(raw))
      return { code: "input_invalid_utf8", message: "the file holds bytes that are not UTF-8" };
    const { text, bom } = withoutBom(raw.toString("utf8"));
    const parsed = parseJson(text);
    if (!parsed.ok) {
      const position = /position (\d+)/.exec(parsed.error);
      const where = position ? ` (${lineAndColumn(text, Number(position[1]))})` : "";
      return {
        code: "input_not_json",
        message: `neither a JSON document nor JSONL: ${parsed.error}${where}`,
      };
    }
    const value = parsed.value;
    const single =
      forced !== undefined
        ? forced.unit === "record" && !isArrayOfRecords(value)
          ? forced
          : undefined
        : detectRecordFormat(value);
    if (single !== undefined) {
      const rewritten = handle(single, value, text, {});
      if (rewritten === undefined) output?.keep(raw);
      else {
        const around = surroundings(text);
        output?.replace(
          raw,
          Buffer.from(`${bom ? "\uFEFF" : ""}${around.before}${rewritten.text}${around.after}`, "utf8"),
          { place: "document", rules: rewritten.rules },
        );
      }
      return undefined;
    }
    const prefix = bom ? Buffer.from("\uFEFF", "utf8") : Buffer.alloc(0);
    if (!recordsOfArray(value, text, {}, prefix)) return unknownFormat(value);
    return undefined;
  }

  /** The format of the elements of an array of records, or `undefined` when the value is no such array. */
  function elementFormatOf(value: unknown): ConversationFormat | undefined {
    if (!Array.isArray(value) || value.length === 0) return undefined;
    const format = forced ?? detectRecordFormat(value[0]);
    return format?.unit === "record" ? format : undefined;
  }

  /**
   * An array of records (a JSON document, or one JSONL line holding a whole data set): each element handled on
   * its own and, when rewritten, replaced in the array's text, every other byte kept. False when the value is no
   * array of records (nothing handled, nothing written).
   */
  function recordsOfArray(value: unknown, text: string, base: RecordPlace, prefix: Buffer): boolean {
    const elementFormat = elementFormatOf(value);
    if (elementFormat === undefined || !Array.isArray(value)) return false;
    const spans = arrayElementSpans(text);
    if (spans === undefined || spans.length !== value.length) return false;
    let at = 0;
    // An element is laid out as the document is: its own text starts one level deep.
    const documentStyle = detectJsonStyle(text);
    output?.keep(prefix);
    value.forEach((element, index) => {
      const span = spans[index] as { start: number; end: number };
      const place = { ...base, index };
      const format = elementFormat.matches(element) ? elementFormat : detectRecordFormat(element);
      const elementText = text.slice(span.start, span.end);
      let rewritten: { text: string; rules: string[] } | undefined;
      if (format === undefined) {
        handler.unreadable(place, {
          code: "line_format_unknown",
          message: `${describeValue(element)}, in no known format (it is kept as it is)`,
        });
      } else {
        rewritten = handle(format, element, elementText, place, undefined, documentStyle);
      }
      output?.keep(Buffer.from(text.slice(at, span.start), "utf8"));
      if (rewritten === undefined) output?.keep(Buffer.from(elementText, "utf8"));
      else {
        output?.replace(Buffer.from(elementText, "utf8"), Buffer.from(rewritten.text, "utf8"), {
          place: placeText(place),
          rules: rewritten.rules,
        });
      }
      at = span.end;
    });
    output?.keep(Buffer.from(text.slice(at), "utf8"));
    return true;
  }

  function isArrayOfRecords(value: unknown): boolean {
    return (
      Array.isArray(value) &&
      value.length > 0 &&
      forced !== undefined &&
      value.every((v) => forced.matches(v))
    );
  }

  /** A session file (JSON lines of one conversation) or a server-sent event log: read whole, lines kept. */
  function wholeLines(raw: Buffer, framing: "session" | "sse"): InputIssue | undefined {
    const lines = splitLines(raw);
    const values: unknown[] = [];
    const lineOfValue: number[] = [];
    lines.forEach((line, index) => {
      const { content } = contentOf(line);
      if (!isUtf8(content)) {
        handler.unreadable(
          { line: index + 1 },
          { code: "line_invalid_utf8", message: "the line holds bytes that are not UTF-8" },
        );
        return;
      }
      let text = content.toString("utf8");
      if (index === 0) text = withoutBom(text).text;
      if (framing === "sse") {
        const data = /^data: ?/.exec(text);
        if (data === null) return;
        text = text.slice(data[0].length);
        if (text.trim() === "[DONE]") return;
      }
      if (text.trim() === "") return;
      const parsed = parseJson(text, { lossless: true });
      if (!parsed.ok) {
        handler.unreadable({ line: index + 1 }, { code: "line_invalid_json", message: parsed.error });
        return;
      }
      values.push(parsed.value);
      lineOfValue.push(index);
    });
    const format = forced ?? detectSessionFormat(values);
    if (format === undefined || format.unit !== "session") {
      return unknownFormat(values[0]);
    }
    records++;
    announce(format);
    const outcome = handler.record(format, values, {}, () => undefined);
    if (outcome?.value === undefined || output === undefined) {
      output?.keep(raw);
      return undefined;
    }
    const next = outcome.value as unknown[];
    const original = new Map<unknown, number>();
    for (const [i, value] of values.entries()) original.set(value, i);
    const eol = contentOf(lines[lineOfValue[0] ?? 0] ?? Buffer.from("\n")).eol.toString("latin1") || "\n";
    const firstText = contentOf(lines[lineOfValue[0] ?? 0] ?? Buffer.alloc(0)).content.toString("utf8");
    const style = detectJsonStyle(withoutBom(firstText).text.replace(/^data: ?/, ""));
    const fresh = (value: unknown): Buffer | undefined => {
      const written = serializeRecord(value, style, true);
      if (!written.ok) return undefined;
      return Buffer.from(`${framing === "sse" ? "data: " : ""}${written.text}${eol}`, "utf8");
    };
    const pieces: Piece[] = [];
    const valueLines = new Set(lineOfValue);
    let pointer = 0;
    const isKept = (value: unknown) => original.has(value);
    // Walk the original lines; between two kept values, changed values take the places of the values they replace,
    // in order, and lines that hold no value stay where they are.
    const anchors = next.filter(isKept).map((value) => lineOfValue[original.get(value) as number] as number);
    let anchorAt = 0;
    for (let index = 0; index <= lines.length; index++) {
      const nextAnchor = anchors[anchorAt] ?? lines.length;
      if (index === nextAnchor || index === lines.length) {
        // Every new value before the anchor goes here, in order.
        while (pointer < next.length && !isKept(next[pointer])) {
          const bytes = fresh(next[pointer]);
          if (bytes === undefined)
            return { code: "input_not_rewritable", message: "a rewritten line cannot be written" };
          pieces.push({ bytes, place: `line ${index + 1}` });
          pointer++;
        }
        if (index === lines.length) break;
        pieces.push({ keep: index });
        pointer++;
        anchorAt++;
        continue;
      }
      if (!valueLines.has(index)) {
        pieces.push({ keep: index });
        continue;
      }
      // A value line that is not kept: replaced by the next new value, if one comes before the next anchor.
      if (pointer < next.length && !isKept(next[pointer])) {
        const bytes = fresh(next[pointer]);
        if (bytes === undefined)
          return { code: "input_not_rewritable", message: "a rewritten line cannot be written" };
        pieces.push({ bytes, place: `line ${index + 1}` });
        pointer++;
      }
    }
    writePieces(lines, pieces, {
      keep: (bytes) => output.keep(bytes),
      replace: (original, replacement, meta) =>
        output.replace(original, replacement, { ...meta, rules: outcome.rules ?? [] }),
    });
    return undefined;
  }

  const summary = { framing: scan.summary.format, bytes: scan.summary.bytes, records };
  if (!scan.ok) return { ok: false, issue: scan.issue, summary };
  if (failure !== undefined) return { ok: false, issue: failure, summary };
  if (records === 0 && jsonLines > 0) {
    return {
      ok: false,
      issue: {
        code: "input_format_unknown",
        message: `no line holds a record of a known format; expected one of: ${expectedFormats()}`,
      },
      summary,
    };
  }
  return { ok: true, summary };
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
