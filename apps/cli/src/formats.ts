import { anthropicMessagesFormat, claudeCodeFormat } from "@toolcall/anthropic";
import type { ConversationFormat } from "@toolcall/core/kit";
import { llamafactoryFormat, sharegptFormat } from "@toolcall/datasets";
import {
  codexRolloutFormat,
  openaiChatChunksFormat,
  openaiChatCompletionFormat,
  openaiChatFormat,
  openaiResponsesFormat,
} from "@toolcall/openai";

/**
 * Formats whose record is a whole file of JSON lines (an agent's session, a log of streamed chunks), in the order
 * they are tried. The knowledge of each shape is in its ecosystem's package; this list only composes them.
 */
export const SESSION_FORMATS: readonly ConversationFormat[] = [
  claudeCodeFormat,
  codexRolloutFormat,
  openaiChatChunksFormat,
];

/**
 * Formats whose record is one JSON value (a document, an element of a JSON array, a JSONL line), most specific
 * first: a list of `{role, content}` is OpenAI Chat only when nothing more specific claims it.
 */
export const RECORD_FORMATS: readonly ConversationFormat[] = [
  openaiChatCompletionFormat,
  anthropicMessagesFormat,
  llamafactoryFormat,
  sharegptFormat,
  openaiResponsesFormat,
  openaiChatFormat,
];

/** Every format, for `--format` and `toolcall formats`. */
export const ALL_FORMATS: readonly ConversationFormat[] = [...RECORD_FORMATS, ...SESSION_FORMATS];

/**
 * The format `--format ID` names, or `undefined`.
 *
 * @example
 * formatById("sharegpt")?.name; // "ShareGPT (glaive, Hermes, LLaMA-Factory)"
 */
export function formatById(id: string): ConversationFormat | undefined {
  return ALL_FORMATS.find((format) => format.id === id);
}

/**
 * The first record format whose shape the value has, or `undefined`.
 *
 * @example
 * detectRecordFormat({ messages: [{ role: "user", content: "hi" }] })?.id; // "openai-chat"
 */
export function detectRecordFormat(value: unknown): ConversationFormat | undefined {
  return RECORD_FORMATS.find((format) => format.matches(value));
}

/**
 * The session format whose shape the first lines of a file have, or `undefined`.
 *
 * @example
 * detectSessionFormat([{ type: "session_meta", payload: {} }])?.id; // "codex-rollout"
 */
export function detectSessionFormat(values: readonly unknown[]): ConversationFormat | undefined {
  return SESSION_FORMATS.find((format) => format.matches(values));
}

/**
 * What a file in no known format was expected to be: one line per format, for `input_format_unknown`.
 *
 * @example
 * expectedFormats(); // "openai-chat-completion ({"object": "chat.completion", …}), anthropic-messages (…), …"
 */
export function expectedFormats(): string {
  return ALL_FORMATS.map((format) => format.id).join(", ");
}
