// A pasted saved chat read the way the command line reads a file: with the formats the ecosystems' packages export
// (OpenAI Chat, completions, Responses, chunk logs and Codex rollouts from @toolcall/openai; Anthropic Messages and
// Claude Code sessions from @toolcall/anthropic; ShareGPT and LLaMA-Factory from @toolcall/datasets), composed here in
// the command line's order, detected from the content or picked. One JSON document is a record or an array of
// records; JSON lines are a session (a whole file of lines) or one record per line.
import { aiSdkFormats } from "@toolcall/ai-sdk/formats";
import { anthropicFormats } from "@toolcall/anthropic";
import { bedrockFormats } from "@toolcall/bedrock";
import { cohereFormats } from "@toolcall/cohere";
import { type ConversationFormat, createFormatRegistry, type FormatReading } from "@toolcall/core/kit";
import { datasetFormats } from "@toolcall/datasets";
import { geminiFormats } from "@toolcall/gemini";
import { langchainFormats } from "@toolcall/langchain/formats";
import { openaiFormats } from "@toolcall/openai";

/** The formats the page reads: the ecosystems' packages composed as the command line composes them. */
export const SAVED_CHAT_REGISTRY = createFormatRegistry([
  ...openaiFormats,
  ...anthropicFormats,
  ...datasetFormats,
  ...geminiFormats,
  ...bedrockFormats,
  ...cohereFormats,
  ...aiSdkFormats,
  ...langchainFormats,
]);

/** Formats whose record is one JSON value, most specific first. */
export const RECORD_FORMATS: readonly ConversationFormat[] = SAVED_CHAT_REGISTRY.formats.filter(
  (format) => format.unit === "record",
);

/** Formats whose record is a whole file of JSON lines. */
export const SESSION_FORMATS: readonly ConversationFormat[] = SAVED_CHAT_REGISTRY.formats.filter(
  (format) => format.unit === "session",
);

/** Every format the page reads, for the picker. */
export const SAVED_CHAT_FORMATS: readonly ConversationFormat[] = SAVED_CHAT_REGISTRY.formats;

/** One record of the paste, read. */
export interface SavedRecord {
  /** Where it is in the paste (`line 3`, `[2]`), when the paste holds several. */
  label?: string;
  format: ConversationFormat;
  /** The record as pasted: a JSON value, or the list of line values of a session. */
  value: unknown;
  reading: FormatReading;
}

/** What reading a paste found. */
export type SavedChatReading = { ok: true; records: SavedRecord[] } | { ok: false; error: string };

function parseLines(text: string): { ok: true; values: unknown[] } | { ok: false; error: string } {
  const values: unknown[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]?.trim() ?? "";
    if (line === "") continue;
    try {
      values.push(JSON.parse(line));
    } catch (error) {
      return { ok: false, error: `line ${i + 1}: ${(error as Error).message}` };
    }
  }
  return { ok: true, values };
}

function claimedSession(values: unknown[]): ConversationFormat | undefined {
  const found = SAVED_CHAT_REGISTRY.detect(values, "session");
  return found?.claimed ? found.format : undefined;
}

/** Why a format the reader picked does not fit what was pasted, when another format claims it. */
function misnamed(value: unknown, forced: ConversationFormat | undefined): string | undefined {
  return forced === undefined ? undefined : SAVED_CHAT_REGISTRY.misnamed({ value, named: forced });
}

function record(format: ConversationFormat, value: unknown, label?: string): SavedRecord {
  return { ...(label ? { label } : {}), format, value, reading: format.read(value) };
}

/**
 * Reads a pasted chat. `formatId` is `auto` (detected as the command line detects it) or a format's id.
 *
 * @example
 * readSavedChat('[{"role": "user", "content": "hi"}]', "auto"); // { ok: true, records: [{ format: openaiChatFormat, … }] }
 */
export function readSavedChat(text: string, formatId: string): SavedChatReading {
  const forced = formatId === "auto" ? undefined : SAVED_CHAT_REGISTRY.byId(formatId);
  if (formatId !== "auto" && forced === undefined) return { ok: false, error: `no format ${formatId}` };
  const detect = (value: unknown) => {
    if (forced !== undefined) return forced;
    const found = SAVED_CHAT_REGISTRY.detect(value, "record");
    return found?.claimed ? found.format : undefined;
  };
  let whole: unknown;
  let wholeError: string | undefined;
  try {
    whole = JSON.parse(text);
  } catch (error) {
    wholeError = (error as Error).message;
  }
  if (wholeError === undefined) {
    const wrong = misnamed(forced?.unit === "session" && !Array.isArray(whole) ? [whole] : whole, forced);
    if (wrong !== undefined) return { ok: false, error: wrong };
    const single = forced?.unit === "session" ? undefined : detect(whole);
    if (single?.matches(whole)) return { ok: true, records: [record(single, whole)] };
    // A data set saved as one JSON array: each element a record.
    const element = Array.isArray(whole) && whole.length > 0 ? detect(whole[0]) : undefined;
    if (element?.unit === "record" && Array.isArray(whole))
      return { ok: true, records: whole.map((value, i) => record(element, value, `[${i}]`)) };
    if (forced?.unit === "session" && Array.isArray(whole))
      return { ok: true, records: [record(forced, whole)] };
    return {
      ok: false,
      error: `not a saved chat the page reads: ${SAVED_CHAT_REGISTRY.refusal({ value: whole, unit: "record", ...(forced ? { named: forced } : {}) })}`,
    };
  }
  const lines = parseLines(text);
  if (!lines.ok)
    return { ok: false, error: `neither a JSON document (${wholeError}) nor JSON lines (${lines.error})` };
  if (lines.values.length === 0) return { ok: false, error: "nothing to read" };
  const session = forced?.unit === "session" ? forced : claimedSession(lines.values);
  if (session !== undefined && (forced === undefined || forced === session))
    return { ok: true, records: [record(session, lines.values)] };
  const records: SavedRecord[] = [];
  for (const [index, value] of lines.values.entries()) {
    const format = detect(value);
    if (format === undefined || !format.matches(value))
      return {
        ok: false,
        error: `line ${index + 1} is no saved chat the page reads: ${SAVED_CHAT_REGISTRY.refusal({ value, unit: "record" })}`,
      };
    records.push(record(format, value, `line ${index + 1}`));
  }
  return { ok: true, records };
}
