import { isAscii, isUtf8 } from "node:buffer";
import { parseJson, type RecordIssue, type Result } from "@toolcall/core";
import {
  type ConversationFormat,
  numbersRoundTrip,
  type RecordChange,
  type RecordEngine,
  serializeJson,
} from "@toolcall/core/kit";
import { plainJsonError } from "../input/document-text.js";
import type { InputIssue } from "../input/input-issue.js";
import { detectRecordFormat, FORMATS, formatById, refusalOf } from "./formats.js";
import { detectJsonStyle, type JsonStyle } from "./json-style.js";
import { serializeRecord } from "./record-writer.js";
import { type SpliceWork, spliceStringified } from "./splice-json.js";

/** What a record's check found (serializable: it crosses from a worker to the main thread). */
export interface CheckData {
  kind: "check";
  conversations: number;
  issues: RecordIssue[];
}

/** What a record's repair did and left (serializable). */
export interface RepairData {
  kind: "repair";
  conversations: number;
  changes: RecordChange[];
  remaining: RecordIssue[];
  notRewritable?: string;
  /** The rules that changed it, for the journal. */
  rules: string[];
  /** The record could not be written back as JSON (its bytes are kept). */
  notWritable?: string;
}

/**
 * What working on one record gave: a check's issues, or a repair's changes and what it left.
 *
 * @example
 * handler.consume = (format, place, data: RecordData) => data.kind === "repair" && console.log(data.changes.length);
 */
export type RecordData = CheckData | RepairData;

/**
 * How records are worked on: checked or repaired, with which processor, and a format named by `--format`.
 *
 * @example
 * const context: WorkContext = { mode: "check", processor: createRecordEngine({ repairs: coreRepairs }) };
 */
export interface WorkContext {
  mode: "check" | "repair";
  processor: RecordEngine;
  forced?: ConversationFormat;
}

/**
 * Checks or repairs one record. For a repair that changes it, the record is read again keeping every number's text
 * when the first read rounded one (beyond 2^53, `1.0`), and `value` is the record to write (`lossless`: it holds
 * core's exact numbers).
 *
 * @example
 * computeRecord(context, openaiChatFormat, value, text); // { data: { kind: "check", … } }
 */
export function computeRecord(
  context: WorkContext,
  format: ConversationFormat,
  value: unknown,
  text: string | undefined,
  /**
   * Write a repaired record by {@link spliceStringified} when its text allows (a JSONL line): its text then comes as
   * `spliced`, and the numbers need no scan of their own (the splice read each one as `JSON.stringify` writes it).
   */
  splice?: { work?: SpliceWork },
): { data: RecordData; value?: unknown; lossless: boolean; spliced?: string } {
  if (context.mode === "check") {
    const checked = context.processor.check(format, value);
    return {
      data: { kind: "check", conversations: checked.conversations, issues: checked.issues },
      lossless: false,
    };
  }
  let repaired = context.processor.repair(format, value);
  let lossless = false;
  const spliced =
    splice !== undefined && repaired.value !== undefined && text !== undefined
      ? spliceStringified({
          text,
          original: value,
          written: repaired.value,
          ...(splice.work !== undefined ? { work: splice.work } : {}),
        })
      : undefined;
  if (
    spliced === undefined &&
    repaired.value !== undefined &&
    text !== undefined &&
    !numbersRoundTrip(text)
  ) {
    const exact = parseJson(text, { lossless: true });
    if (exact.success) {
      const again = context.processor.repair(format, exact.value);
      if (again.value !== undefined) {
        repaired = again;
        lossless = true;
      }
    }
  }
  const data: RepairData = {
    kind: "repair",
    conversations: repaired.conversations,
    changes: repaired.changes,
    remaining: repaired.remaining,
    rules: [...new Set(repaired.changes.map((change) => change.rule))],
    ...(repaired.notRewritable !== undefined ? { notRewritable: repaired.notRewritable } : {}),
  };
  return {
    data,
    ...(repaired.value !== undefined ? { value: repaired.value } : {}),
    lossless,
    ...(spliced !== undefined ? { spliced } : {}),
  };
}

/**
 * The record's rewritten text in a style, or why it cannot be written. With `original` (the value `text` was parsed
 * from, as read), a record written as `JSON.stringify` writes keeps the text of every part the repair kept as it was
 * read, serializing only what changed (the same bytes either way).
 *
 * @example
 * rewrite(repaired, text, { ascii: true }); // { success: true, value: '{"messages":[…]}' }
 */
export function rewrite(
  computed: { value?: unknown; lossless: boolean; spliced?: string },
  text: string,
  options: {
    /** Whether the text is pure ASCII, when the caller knows (or can tell from the bytes, asked only when needed). */
    ascii?: boolean | (() => boolean);
    style?: JsonStyle;
    depth?: number;
    original?: unknown;
    work?: SpliceWork;
  } = {},
): Result<string> | undefined {
  if (computed.value === undefined) return undefined;
  if (computed.spliced !== undefined) return { success: true, value: computed.spliced };
  const depth = options.depth ?? 0;
  // Text that is exactly `JSON.stringify`'s (what the splice reads it for) has that style: no space, no indent, no
  // escaped non-ASCII character. The style is looked for only when the splice could not be made.
  if (
    options.original !== undefined &&
    !computed.lossless &&
    depth === 0 &&
    (options.style === undefined || isStringifyStyle(options.style))
  ) {
    const spliced = spliceStringified({
      text,
      original: options.original,
      written: computed.value,
      ...(options.work !== undefined ? { work: options.work } : {}),
    });
    if (spliced !== undefined) return { success: true, value: spliced };
  }
  const ascii = typeof options.ascii === "function" ? options.ascii() : options.ascii;
  const style = options.style ?? detectJsonStyle(text, ascii === undefined ? {} : { ascii });
  return serializeRecord(computed.value, style, computed.lossless, depth);
}

/** The style `JSON.stringify` writes in: one line, no space, non-ASCII characters as they are. */
function isStringifyStyle(style: JsonStyle): boolean {
  return style.indent === "" && !style.spaced && !style.ensureAscii;
}

/** What working on one JSONL line gives: what to write for it and what to report. */
export type LineResult =
  | { kind: "blank" }
  | { kind: "unreadable"; issue: InputIssue }
  | { kind: "format_unknown"; issue: InputIssue }
  /** A line holding a whole array of records: worked on by the reader itself (rare). */
  | { kind: "array" }
  | {
      kind: "record";
      format: string;
      data: RecordData;
      bytes?: Uint8Array;
      /** The data as exact JSON text, when it holds numbers read exactly (they do not survive a structured clone). */
      exactData?: string;
    };

function isBlank(content: Buffer): boolean {
  for (let i = 0; i < content.length; i++) {
    const c = content[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/**
 * Works on one JSONL line, from its bytes (without the line terminator): UTF-8, JSON, its format (named, or
 * detected from the last format seen, then every format), the check or repair, and the rewritten text. The same
 * function runs on the main thread (one job) and in each worker (several), so both give the same bytes.
 *
 * @example
 * workLine(context, Buffer.from('[{"role":"user","content":"hi"}]'), 1, state); // { kind: "record", format: "openai-chat", … }
 */
export function workLine(
  context: WorkContext,
  content: Buffer,
  number: number,
  state: { current?: ConversationFormat; work?: SpliceWork },
): LineResult {
  if (isBlank(content)) return { kind: "blank" };
  if (!isUtf8(content)) {
    return {
      kind: "unreadable",
      issue: { code: "line_invalid_utf8", message: "the line holds bytes that are not UTF-8" },
    };
  }
  let text = content.toString("utf8");
  const bom = number === 1 && text.charCodeAt(0) === 0xfeff;
  if (bom) text = text.slice(1);
  const parsed = parseJson(text);
  if (!parsed.success)
    return {
      kind: "unreadable",
      issue: { code: "line_invalid_json", message: plainJsonError(parsed.error) },
    };
  const value = parsed.value;
  let format: ConversationFormat | undefined;
  if (context.forced !== undefined) {
    const misnamed =
      context.forced.unit === "record" ? FORMATS.misnamed({ value, named: context.forced }) : undefined;
    if (misnamed !== undefined)
      return { kind: "format_unknown", issue: { code: "line_format_unknown", message: misnamed } };
    format = context.forced.unit === "record" ? context.forced : undefined;
  } else {
    // Detected on every line, by priority: the last line's format would claim a line a more specific one owns
    // (a line of Ollama's object arguments after an OpenAI Chat line), and workers would then disagree.
    format = detectRecordFormat(value);
    if (format !== undefined) state.current = format;
  }
  if (format === undefined) {
    if (
      Array.isArray(value) &&
      value.length > 0 &&
      (context.forced ?? detectRecordFormat(value[0])) !== undefined
    ) {
      return { kind: "array" };
    }
    return {
      kind: "format_unknown",
      issue: {
        code: "line_format_unknown",
        message: `${refusalOf(value, { brief: true })} (it is passed through unread)`,
      },
    };
  }
  // The splice is tried once, beside the repair (it stands for the numbers' scan when it succeeds).
  const computed = computeRecord(
    context,
    format,
    value,
    text,
    state.work !== undefined ? { work: state.work } : {},
  );
  const exact = computed.lossless ? serializeJson(computed.data) : undefined;
  const exactData = exact?.success ? { exactData: exact.value } : {};
  // Asked only when the record is written otherwise than by the splice.
  const written = rewrite(computed, text, { ascii: () => isAscii(content) });
  if (written === undefined) return { kind: "record", format: format.id, data: computed.data, ...exactData };
  if (!written.success) {
    const data = computed.data as RepairData;
    return { kind: "record", format: format.id, data: { ...data, notWritable: written.error } };
  }
  return {
    kind: "record",
    format: format.id,
    data: computed.data,
    ...exactData,
    // Encoded as it is: a template joining an empty mark would copy the whole text first.
    bytes: Buffer.from(bom ? `\uFEFF${written.value}` : written.value, "utf8"),
  };
}

/** The format a worker is told by id, as `--format` named it. */
export function forcedFormat(id: string | undefined): ConversationFormat | undefined {
  return id === undefined ? undefined : formatById(id);
}
