import { type SanitizeChange, sanitizeHistory } from "@toolcall/core";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { type OpenAIRepairOptions, sanitizeOptionsOf } from "../options.js";

/**
 * Sanitizes a Chat Completions history before it is sent (R4), so a poisoned session never reaches a strict
 * provider: the same array when nothing needs fixing, every change reported.
 *
 * @example
 * const { messages } = sanitizeChatMessages(history, { repairs: coreRepairs });
 * await client.chat.completions.create({ model, messages, tools });
 */
export function sanitizeChatMessages(
  messages: readonly ChatCompletionMessageParam[],
  options: OpenAIRepairOptions = {},
): { messages: ChatCompletionMessageParam[]; changes: SanitizeChange[] } {
  const result = sanitizeHistory(messages, sanitizeOptionsOf(options));
  for (const change of result.changes)
    options.onRepair?.({ kind: "history", api: "chat.completions", source: "request", change });
  return result;
}
