import { anthropicFormats } from "@toolcall/anthropic";
import { type ConversationFormat, createFormatRegistry } from "@toolcall/core";
import { datasetFormats } from "@toolcall/datasets";
import { openaiFormats } from "@toolcall/openai";

/**
 * The formats the command line reads: each ecosystem's package exports its formats with their detection priorities;
 * this only composes them (the playground composes the same packages, and a test keeps both equal).
 *
 * @example
 * FORMATS.detect({ conversations: [{ from: "human", value: "hi" }] }, "record")?.format.id; // "sharegpt"
 */
export const FORMATS = createFormatRegistry([...openaiFormats, ...anthropicFormats, ...datasetFormats]);

/** Formats whose record is a whole file of JSON lines (an agent's session, a log of streamed chunks). */
export const SESSION_FORMATS: readonly ConversationFormat[] = FORMATS.formats.filter(
  (format) => format.unit === "session",
);

/** Formats whose record is one JSON value (a document, an element of a JSON array, a JSONL line). */
export const RECORD_FORMATS: readonly ConversationFormat[] = FORMATS.formats.filter(
  (format) => format.unit === "record",
);

/** Every format, for `--format` and `toolcall formats`. */
export const ALL_FORMATS: readonly ConversationFormat[] = FORMATS.formats;

/**
 * The format `--format ID` names, or `undefined`.
 *
 * @example
 * formatById("sharegpt")?.name; // "ShareGPT (glaive, Hermes, LLaMA-Factory)"
 */
export function formatById(id: string): ConversationFormat | undefined {
  return FORMATS.byId(id);
}

/**
 * The record format that claims the value, or `undefined` (a value that only resembles a format is not read: its
 * refusal names the format).
 *
 * @example
 * detectRecordFormat({ messages: [{ role: "user", content: "hi" }] })?.id; // "openai-chat"
 */
export function detectRecordFormat(value: unknown): ConversationFormat | undefined {
  const found = FORMATS.detect(value, "record");
  return found?.claimed ? found.format : undefined;
}

/**
 * The session format whose shape the first lines of a file have, or `undefined`.
 *
 * @example
 * detectSessionFormat([{ type: "session_meta", payload: {} }])?.id; // "codex-rollout"
 */
export function detectSessionFormat(values: readonly unknown[]): ConversationFormat | undefined {
  const found = FORMATS.detect(values, "session");
  return found?.claimed ? found.format : undefined;
}

/**
 * Why a value is in no known format, for `input_format_unknown`: its shape, and the format it probably is with the
 * flag that reads it, or every format expected.
 *
 * @example
 * refusalOf({ contents: [] }); // 'an object with key "contents", in no known format; expected one of: …'
 */
export function refusalOf(value: unknown, options: { brief?: boolean } = {}): string {
  return FORMATS.refusal({ value, unit: "record", ...options });
}
