import type { ConversationFormat } from "@toolcall/core/kit";
import { openaiChatChunksFormat } from "./chat-chunks-format.js";
import { openaiChatCompletionFormat } from "./chat-completion-format.js";
import { openaiChatFormat } from "./chat-format.js";
import { codexRolloutFormat } from "./codex-rollout-format.js";
import { kimiCliContextFormat } from "./kimi-cli-context-format.js";
import { ollamaChatFormat } from "./ollama-chat-format.js";
import { openaiResponsesFormat } from "./responses-format.js";
import { openaiResponsesStreamFormat } from "./responses-stream-format.js";

/**
 * Every OpenAI format, most specific first (the order to try them in when detecting): completions, chunk logs and Responses stream events
 * before Responses items, Codex sessions, Ollama's native chat (object arguments), and Chat messages last (a list of `{role, content}` is Chat).
 *
 * @example
 * const format = openaiFormats.find((f) => f.unit === "record" && f.matches(value));
 */
export const openaiFormats: readonly ConversationFormat[] = [
  openaiChatCompletionFormat,
  openaiChatChunksFormat,
  openaiResponsesStreamFormat,
  codexRolloutFormat,
  kimiCliContextFormat,
  openaiResponsesFormat,
  ollamaChatFormat,
  openaiChatFormat,
];
