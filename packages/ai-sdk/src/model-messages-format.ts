import type { ChatMessage } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatReading,
  guardedReading,
  isPlainObject,
  storedListOf,
  withStoredList,
} from "@toolcall/core/kit";
import { fromNeutralEntries } from "./from-neutral-messages.js";
import { AI_SDK_ORIGIN, AI_SDK_PART, type AiSdkOrigin, getTag } from "./origin.js";
import { mergeCarried, placeOfPart, splitCarried } from "./stored-list.js";
import { toNeutralEntries } from "./to-neutral-messages.js";

const ROLES = new Set(["system", "user", "assistant", "tool"]);

/** An AI SDK `ModelMessage`: a role and content, none of the keys OpenAI Chat or a UI message has. */
function isModelMessage(value: unknown): boolean {
  return (
    isPlainObject(value) &&
    typeof value.role === "string" &&
    ROLES.has(value.role) &&
    "content" in value &&
    !("parts" in value) &&
    !("tool_calls" in value) &&
    !("tool_call_id" in value)
  );
}

/** A part only the AI SDK writes: a call or result with `toolCallId`, an approval. */
function isSdkPart(part: unknown): boolean {
  return (
    isPlainObject(part) &&
    typeof part.toolCallId === "string" &&
    (part.type === "tool-call" ||
      part.type === "tool-result" ||
      part.type === "tool-approval-request" ||
      part.type === "tool-approval-response")
  );
}

function hasSdkPart(message: unknown): boolean {
  return isPlainObject(message) && Array.isArray(message.content) && message.content.some(isSdkPart);
}

/**
 * Vercel AI SDK `ModelMessage`s as an app saves them (`response.messages` of `generateText` / `streamText`, a
 * `messages` list passed to them, or an object with `messages`): an assistant message's `tool-call` parts are its
 * calls (`input`, an object, read as its JSON text), each `tool-result` part of a tool message a result (`output`
 * `text` / `error-text` as its text, `json` / `error-json` / `content` as JSON text). Read as `sanitizeModelMessages`
 * reads them; a tool message of approvals only, calls a provider ran and every option stay as they are. Writing back
 * rebuilds only the messages a rule changed (a call's `input` stays an object), every other one is the same object.
 * Only a list holding an AI SDK call or result is claimed (a list of plain text messages is OpenAI Chat's).
 *
 * @example
 * const reading = aiSdkModelMessagesFormat.read([
 *   { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "weather", input: { city: "Paris" } }] },
 * ]);
 * reading.conversations[0]?.messages[0]?.tool_calls; // [{ id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }]
 */
export const aiSdkModelMessagesFormat: ConversationFormat = {
  id: "ai-sdk-model-messages",
  name: "Vercel AI SDK ModelMessages (tool-call / tool-result parts)",
  expected:
    'a list of {role, content} messages with {"type": "tool-call", toolCallId, toolName, input} and {"type": "tool-result", toolCallId, output} parts, or an object with "messages"',
  unit: "record",
  priority: 32,
  matches(value) {
    const found = storedListOf({ value, isMessage: isModelMessage });
    return found?.list.some(hasSdkPart) === true;
  },
  resembles: (value) => {
    const list = Array.isArray(value) ? value : isPlainObject(value) ? value.messages : undefined;
    return Array.isArray(list) && list.some(hasSdkPart);
  },
  read(value): FormatReading {
    return guardedReading({
      value,
      what: "AI SDK messages",
      read: (): FormatReading => {
        const found = storedListOf({ value, isMessage: isModelMessage, allowEmpty: true });
        if (found === undefined) {
          return {
            conversations: [],
            issues: [
              {
                code: "record_not_conversation",
                severity: "error",
                message: 'neither a list of AI SDK messages nor an object with "messages"',
                path: [],
              },
            ],
            write: () => ({ ok: true, value }),
          };
        }
        const entries: unknown[] = [];
        const owners: number[] = [];
        found.list.forEach((message, index) => {
          for (const entry of toNeutralEntries([message], { enumerable: true, sanitizer: true })) {
            entries.push(entry);
            owners.push(index);
          }
        });
        const { messages, carried } = splitCarried({ entries, owners });
        const indexOf = new Map<unknown, number>(found.list.map((message, index) => [message, index]));
        return {
          conversations: [
            {
              messages: messages as ChatMessage[],
              placeOf(path) {
                const entry = typeof path[0] === "number" ? messages[path[0]] : undefined;
                const origin = getTag<AiSdkOrigin>(entry, AI_SDK_ORIGIN);
                const index = origin === undefined ? undefined : indexOf.get(origin.message);
                if (index === undefined) return found.key ?? "";
                let part = origin?.part;
                if (path[1] === "tool_calls" && typeof path[2] === "number" && isPlainObject(entry)) {
                  const call = (entry.tool_calls as unknown[] | undefined)?.[path[2]];
                  part = getTag<number>(call, AI_SDK_PART);
                }
                return placeOfPart({
                  key: found.key,
                  message: index,
                  field: "content",
                  ...(part === undefined ? {} : { part }),
                });
              },
            },
          ],
          issues: [],
          write([next]) {
            if (next === undefined) return { ok: true, value };
            const list = fromNeutralEntries(mergeCarried({ next, carried, indexOf }), "messages");
            return { ok: true, value: withStoredList({ value, found, list }) };
          },
        };
      },
    });
  },
};
