import { isUtf8 } from "node:buffer";
import { parseJson } from "@toolcall/core";
import { type ConversationFormat, describeShape } from "@toolcall/core/kit";
import { lineAndColumn, plainJsonError, surroundings, withoutBom } from "../input/document-text.js";
import type { InputIssue } from "../input/input-issue.js";
import { type InputFormat, scanInput } from "../input/scan-input.js";
import {
  detectRecordFormat,
  detectSessionFormat,
  FORMATS,
  formatById,
  refusalOf,
} from "../records/formats.js";
import { detectJsonStyle, type JsonStyle } from "../records/json-style.js";
import type { RecordPlace } from "../records/places.js";
import { RecordTally } from "../records/record-tally.js";
import {
  computeRecord,
  type LineResult,
  type RecordData,
  rewrite,
  type WorkContext,
} from "../records/record-work.js";
import { arrayElementSpans, writePieces } from "../records/record-writer.js";
import { readSessionLines, sessionRewritePieces } from "../records/session-lines.js";
import { LineBatches } from "../workers/line-batches.js";
import { inlinePool, type LinePool } from "../workers/worker-pool.js";

export type { RecordPlace } from "../records/places.js";

/**
 * What the driver asks of a command (check, repair): to take each record's results, and what holds none.
 *
 * @example
 * const handler: RecordHandler = {
 *   format(format) { console.log("read as", format.id); },
 *   consume(format, place, data) { if (data.kind === "check") console.log(place.line, data.issues.length); },
 *   unreadable(place, issue) { console.log(place.line, issue.code); },
 * };
 */
export interface RecordHandler {
  /** One record's check or repair results, in input order (worked on here or in a worker). */
  consume(format: ConversationFormat, place: RecordPlace, data: RecordData): void;
  /** A part of the input that holds no record (an unreadable line, a line of no known format). */
  unreadable(place: RecordPlace, issue: InputIssue): void;
  /** The format the input was found to be in (once per format). */
  format?(format: ConversationFormat): void;
}

/** Where the bytes of a rewritten input go: kept input bytes, and replacements (journaled). */
export interface RecordOutput {
  keep(bytes: Buffer): void;
  replace(original: Buffer, replacement: Buffer, meta?: { place?: string; rules?: string[] }): void;
}

/**
 * The questions the scan asks to tell how an input is framed (is it one session? is this value a record?), as the
 * formats answer them or `--format` decides.
 *
 * @example
 * scanInput({ chunks, maxLineBytes, visitor: { ...framingQuestions(undefined), ...rest } });
 */
export function framingQuestions(forced: ConversationFormat | undefined): {
  isSession(values: readonly unknown[]): boolean;
  isRecord(value: unknown): boolean;
} {
  return {
    isSession: (values) =>
      forced !== undefined ? forced.unit === "session" : detectSessionFormat(values) !== undefined,
    isRecord: (value) => (forced !== undefined ? true : detectRecordFormat(value) !== undefined),
  };
}

export interface ProcessSummary {
  framing: InputFormat;
  bytes: number;
  records: number;
}

/**
 * What working on one input gave: its framing, bytes and records read, and the issue when the input as a whole could not be read.
 *
 * @example
 * const result: ProcessResult = await processFile({ source, pool, context, handler, maxLineBytes });
 * if (!result.ok) console.log(result.issue.code);
 */
export type ProcessResult =
  | { ok: true; summary: ProcessSummary }
  | { ok: false; issue: InputIssue; summary: ProcessSummary };

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
  context: WorkContext;
  /** Where JSONL lines are worked on (worker threads); default: here, in order. */
  pool?: LinePool;
  handler: RecordHandler;
  output?: RecordOutput;
  afterChunk?(progress: { bytes: number; lines: number }): Promise<void> | undefined;
}): Promise<ProcessResult> {
  const { context, handler, output } = options;
  const forced = context.forced;
  const pool = options.pool ?? inlinePool(context);
  const tally = new RecordTally(handler);
  /** One record worked on here: its results to the handler, its rewritten text (or undefined: kept). */
  const handle = (
    format: ConversationFormat,
    value: unknown,
    text: string,
    place: RecordPlace,
    documentStyle?: JsonStyle,
  ): { text: string; rules: string[] } | undefined => {
    tally.record(format);
    const computed = computeRecord(context, format, value, text);
    const written =
      output === undefined
        ? undefined
        : rewrite(computed, text, {
            ...(documentStyle ? { style: documentStyle } : {}),
            depth: place.index === undefined ? 0 : 1,
            original: value,
          });
    const data = computed.data;
    if (written !== undefined && !written.success && data.kind === "repair") data.notWritable = written.error;
    handler.consume(format, place, data);
    if (written === undefined || !written.success || data.kind !== "repair") return undefined;
    return { text: written.value, rules: data.rules };
  };
  const placeText = (place: RecordPlace) =>
    place.index !== undefined
      ? `record ${place.index}`
      : place.line !== undefined
        ? `line ${place.line}`
        : "document";

  let failure: InputIssue | undefined;
  const unknownFormat = (value: unknown): InputIssue => ({
    code: "input_format_unknown",
    message: refusalOf(value),
  });

  const applyLine = (raw: Buffer, contentEnd: number, number: number, result: LineResult) => {
    const place = { line: number };
    if (result.kind !== "blank") tally.jsonLines++;
    switch (result.kind) {
      case "blank":
        output?.keep(raw);
        return;
      case "unreadable":
        handler.unreadable(place, result.issue);
        output?.keep(raw);
        return;
      case "format_unknown":
        // An empty array is an empty data set (as an empty file is): no record, and nothing wrong.
        if (/^\s*\[\s*\]\s*$/.test(raw.toString("latin1", 0, Math.min(contentEnd, 64)))) tally.jsonLines--;
        else tally.unknownLine(place, result.issue);
        output?.keep(raw);
        return;
      case "array": {
        if (tally.records === 0) tally.releaseHeld();
        let text = raw.toString("utf8", 0, contentEnd);
        const bom = number === 1 && text.charCodeAt(0) === 0xfeff;
        if (bom) text = text.slice(1);
        const parsed = parseJson(text);
        if (
          !parsed.success ||
          !recordsOfArray(parsed.value, text, place, bom ? Buffer.from("\uFEFF", "utf8") : Buffer.alloc(0))
        ) {
          output?.keep(raw);
          return;
        }
        output?.keep(raw.subarray(contentEnd));
        return;
      }
      case "record": {
        const format = formatById(result.format) as ConversationFormat;
        tally.record(format);
        const exact =
          result.exactData === undefined ? undefined : parseJson(result.exactData, { lossless: true });
        const data = exact?.success ? (exact.value as RecordData) : result.data;
        handler.consume(format, place, data);
        if (result.bytes === undefined || output === undefined) {
          output?.keep(raw);
          return;
        }
        const bytes = Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength);
        output.replace(raw.subarray(0, contentEnd), bytes, {
          place: placeText(place),
          rules: data.kind === "repair" ? data.rules : [],
        });
        output.keep(raw.subarray(contentEnd));
        return;
      }
      default: {
        const never: never = result;
        return never;
      }
    }
  };
  const batches = new LineBatches(pool, {
    keep: (bytes) => output?.keep(bytes),
    unreadable: (place, issue) => handler.unreadable(place, issue),
    line: applyLine,
  });

  const scan = await scanInput({
    chunks: options.chunks,
    maxLineBytes: options.maxLineBytes,
    visitor: {
      ...framingQuestions(forced),
      rawLine(raw, contentEnd, number) {
        batches.line(raw, contentEnd, number);
      },
      unreadableLine(line) {
        // Only a line too long to hold reaches here (the others are read where they are worked on).
        batches.issue({ line: line.number }, line.issue);
      },
      blankLine(raw) {
        batches.bytes(raw);
      },
      overlong(bytes) {
        batches.bytes(bytes);
      },
      whole(input) {
        if (input.format === "json") failure = wholeDocument(input.raw);
        else failure = wholeLines(input.raw, input.format);
      },
      async afterChunk(progress) {
        // Results are applied in input order as they come back; reading waits while too many are in flight.
        await batches.drain(batches.inFlight);
        await options.afterChunk?.(progress);
      },
    },
  });
  batches.flush();
  await batches.drain(0);

  /** One JSON document: a record, or an array of records. */
  function wholeDocument(raw: Buffer): InputIssue | undefined {
    if (!isUtf8(raw))
      return { code: "input_invalid_utf8", message: "the file holds bytes that are not UTF-8" };
    const { text, bom } = withoutBom(raw.toString("utf8"));
    const parsed = parseJson(text);
    if (!parsed.success) {
      const position = /position (\d+)/.exec(parsed.error);
      const where = position ? ` (${lineAndColumn(text, Number(position[1]))})` : "";
      return {
        code: "input_not_json",
        message: `neither a JSON document nor JSONL: ${plainJsonError(parsed.error)}${where}`,
      };
    }
    const value = parsed.value;
    if (forced?.unit === "record" && !isArrayOfRecords(value)) {
      const misnamed = FORMATS.misnamed({ value, named: forced });
      if (misnamed !== undefined) return { code: "input_format_unknown", message: misnamed };
    }
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
    // An empty array is an empty data set, as an empty file is: nothing to check, nothing wrong.
    if (Array.isArray(value) && value.length === 0) {
      output?.keep(raw);
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
      const format =
        forced !== undefined && elementFormat.matches(element) ? elementFormat : detectRecordFormat(element);
      const elementText = text.slice(span.start, span.end);
      let rewritten: { text: string; rules: string[] } | undefined;
      if (format === undefined) {
        handler.unreadable(place, {
          code: "line_format_unknown",
          message: `${describeShape(element)}, in no known format (it is kept as it is)`,
        });
      } else {
        rewritten = handle(format, element, elementText, place, documentStyle);
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
    const session = readSessionLines(raw, framing, (place, issue) => handler.unreadable(place, issue));
    const { lines, values } = session;
    const misnamed = forced === undefined ? undefined : FORMATS.misnamed({ value: values, named: forced });
    if (misnamed !== undefined) return { code: "input_format_unknown", message: misnamed };
    const format = forced ?? detectSessionFormat(values);
    if (format === undefined || format.unit !== "session") {
      return unknownFormat(values[0]);
    }
    tally.record(format);
    const computed = computeRecord(context, format, values, undefined);
    handler.consume(format, {}, computed.data);
    if (computed.value === undefined || output === undefined || computed.data.kind !== "repair") {
      output?.keep(raw);
      return undefined;
    }
    const rules = computed.data.rules;
    const pieces = sessionRewritePieces(session, computed.value as unknown[], framing);
    if (!Array.isArray(pieces)) return pieces;
    writePieces(lines, pieces, {
      keep: (bytes) => output.keep(bytes),
      replace: (original, replacement, meta) => output.replace(original, replacement, { ...meta, rules }),
    });
    return undefined;
  }

  const summary = { framing: scan.summary.format, bytes: scan.summary.bytes, records: tally.records };
  if (!scan.ok) return { ok: false, issue: scan.issue, summary };
  if (failure !== undefined) return { ok: false, issue: failure, summary };
  const unknown = tally.failure();
  if (unknown !== undefined) return { ok: false, issue: unknown, summary };
  return { ok: true, summary };
}
