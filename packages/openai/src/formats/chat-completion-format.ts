import type { ChatMessage } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatConversation,
  type FormatReading,
  isPlainObject,
  placeOfPath,
} from "@toolcall/core/kit";

function isCompletion(value: unknown): value is Record<string, unknown> & { choices: unknown[] } {
  if (!isPlainObject(value) || !Array.isArray(value.choices)) return false;
  if (value.object === "chat.completion") return true;
  return value.choices.length > 0 && value.choices.every((c) => isPlainObject(c) && isPlainObject(c.message));
}

/**
 * OpenAI `chat.completion` responses (what `client.chat.completions.create` returns and servers log): each choice
 * is one answer, checked as a model's answer (its calls await their results by nature; `finish_reason: "length"`
 * makes broken arguments truncated). Writing back replaces `choices[i].message` and nothing else.
 *
 * @example
 * const reading = openaiChatCompletionFormat.read(completion);
 * reading.conversations[0].label; // "choices[0]"
 */
export const openaiChatCompletionFormat: ConversationFormat = {
  id: "openai-chat-completion",
  name: "OpenAI chat.completion responses",
  expected: '{"object": "chat.completion", "choices": [{"message": …, "finish_reason": …}]}',
  unit: "record",
  priority: 40,
  matches: isCompletion,
  read(value): FormatReading {
    if (!isCompletion(value)) {
      return {
        conversations: [],
        issues: [
          {
            code: "record_not_conversation",
            severity: "error",
            message: "not a chat.completion with choices",
            path: [],
          },
        ],
        write: () => ({ ok: true, value }),
      };
    }
    const conversations: FormatConversation[] = [];
    const choiceIndexes: number[] = [];
    const issues: FormatReading["issues"] = [];
    value.choices.forEach((choice, index) => {
      if (!isPlainObject(choice) || !isPlainObject(choice.message)) {
        issues.push({
          code: "choice_without_message",
          severity: "error",
          message: `choice ${index} holds no message`,
          path: ["choices", index],
          place: `choices[${index}]`,
        });
        return;
      }
      choiceIndexes.push(index);
      const finishReason = choice.finish_reason;
      conversations.push({
        messages: [choice.message as ChatMessage],
        answer: true,
        ...(typeof finishReason === "string" || finishReason === null ? { finishReason } : {}),
        label: `choices[${index}]`,
        placeOf: (path) => placeOfPath({ prefix: `choices[${index}].message`, path: path.slice(1) }),
      });
    });
    return {
      conversations,
      issues,
      write(replacements) {
        let choices: unknown[] | undefined;
        for (const [i, messages] of replacements.entries()) {
          if (messages === undefined) continue;
          const index = choiceIndexes[i] as number;
          if (messages.length !== 1) {
            return {
              ok: false,
              reason: `choice ${index} would become ${messages.length} messages; an answer holds one`,
            };
          }
          choices ??= [...value.choices];
          choices[index] = { ...(value.choices[index] as object), message: messages[0] };
        }
        return { ok: true, value: choices ? { ...value, choices } : value };
      },
    };
  },
};
