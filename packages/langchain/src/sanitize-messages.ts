import type { BaseMessage } from "@langchain/core/messages";
import { type ChatMessage, type SanitizeChange, type SanitizeOptions, sanitizeHistory } from "@toolcall/core";
import { isPlainObject } from "@toolcall/core/kit";
import { fromNeutralMessage } from "./from-neutral-messages.js";
import { toNeutralMessage } from "./to-neutral-messages.js";

/**
 * Options of {@link sanitizeMessages}: core's R4 options (`policy`, `missingResult`, `repairs`, `syntheticResult`),
 * and `provider` (`"mistral"`, `"anthropic"` …: the history that provider accepts; see core's `listProviderProfiles`).
 */
export type SanitizeMessagesOptions = SanitizeOptions;

/** What `sanitizeMessages` returns: the LangChain history a strict provider accepts and every change made. */
export interface SanitizeMessagesResult {
  /** The history a strict provider accepts: the input array itself when nothing needed fixing. */
  messages: BaseMessage[];
  /** Every change, with the values it replaced; `messageIndex` is the index in the input. */
  changes: SanitizeChange[];
}

// Core copies a message it changes with object spread, which keeps symbol keys: this one leads back to the
// LangChain message a neutral one was made from, so its id and metadata survive.
const SOURCE_INDEX = Symbol("@toolcall/langchain/source-index");

type Tagged = ChatMessage & { [SOURCE_INDEX]?: number };

/**
 * Sanitizes a LangChain history for strict providers with core's R4 (session poisoning): every call's stored
 * arguments become a JSON object text (`""` → `{}`, a repaired call's canonical text, anything else the raw
 * sentinel `{"_raw_arguments": …}` under the default `preserve` policy), every `ToolMessage` answers a call of its
 * turn by `tool_call_id` (orphans dropped, missing results synthesized), and empty assistant turns go. Invalid
 * calls are not silently dropped, as LangChain's OpenAI conversion does: they are sent as calls with their results.
 *
 * The input is never mutated. Messages that need nothing are returned as the same objects; a changed message keeps
 * its id and metadata, and its `additional_kwargs.tool_calls` is replaced by the sanitized calls (LangChain's
 * OpenAI conversion would otherwise replay the raw ones). Idempotent.
 *
 * @example
 * const { messages, changes } = sanitizeMessages(history, { repairs: coreRepairs });
 * await strictModel.invoke(messages); // accepted
 */
export function sanitizeMessages(
  messages: readonly BaseMessage[],
  options: SanitizeMessagesOptions = {},
): SanitizeMessagesResult {
  const neutral = messages.map((message, index) => {
    const converted = toNeutralMessage(message);
    if (!isPlainObject(converted) || converted === (message as unknown)) return converted;
    Object.defineProperty(converted, SOURCE_INDEX, { value: index, enumerable: true });
    return converted;
  });
  const result = sanitizeHistory(neutral, options);
  if (result.messages === neutral) return { messages: messages as BaseMessage[], changes: [] };
  const out = result.messages.map((entry) => {
    if (!isPlainObject(entry)) return entry as BaseMessage;
    const index = (entry as Tagged)[SOURCE_INDEX];
    if (index === undefined) return fromNeutralMessage(entry) as BaseMessage;
    if (entry === neutral[index]) return messages[index] as BaseMessage;
    return fromNeutralMessage(entry, { source: messages[index] }) as BaseMessage;
  });
  return { messages: out, changes: result.changes };
}
