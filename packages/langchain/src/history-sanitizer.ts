import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import { type BaseMessage, coerceMessageLikeToMessage, HumanMessage } from "@langchain/core/messages";
import { type Runnable, RunnableLambda } from "@langchain/core/runnables";
import { type SanitizeMessagesOptions, sanitizeMessages } from "./sanitize-messages.js";

function toMessages(input: BaseLanguageModelInput): BaseMessage[] {
  if (typeof input === "string") return [new HumanMessage(input)];
  if (Array.isArray(input)) return input.map((message) => coerceMessageLikeToMessage(message));
  return input.toChatMessages();
}

/**
 * A `Runnable` that sanitizes a history (R4) before any chat model call, in an LCEL pipeline:
 * `createHistorySanitizer().pipe(model)`. It takes what chat models take (messages, message-likes, a prompt value
 * or a string) and gives the messages a strict provider accepts (see `sanitizeMessages`).
 *
 * @example
 * const chain = prompt.pipe(createHistorySanitizer({ repairs: coreRepairs })).pipe(new ChatOpenAI({ model: "gpt-4.1" }));
 */
export function createHistorySanitizer(
  options: SanitizeMessagesOptions = {},
): Runnable<BaseLanguageModelInput, BaseMessage[]> {
  return RunnableLambda.from(
    (input: BaseLanguageModelInput) => sanitizeMessages(toMessages(input), options).messages,
  ).withConfig({
    runName: "HistorySanitizer",
  });
}
