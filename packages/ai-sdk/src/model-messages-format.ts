import { type ConversationFormat, type FormatReading, isPlainObject, storedListOf } from "@toolcall/core/kit";
import { carriedView } from "./carried-view.js";
import { fromNeutralEntries } from "./from-neutral-messages.js";
import { readSavedList } from "./read-saved-list.js";
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
    return readSavedList({
      value,
      what: "AI SDK messages",
      refusal: 'neither a list of AI SDK messages nor an object with "messages"',
      isMessage: isModelMessage,
      view(found) {
        const entries: unknown[] = [];
        const owners: number[] = [];
        found.list.forEach((message, index) => {
          for (const entry of toNeutralEntries([message], { enumerable: true, sanitizer: true })) {
            entries.push(entry);
            owners.push(index);
          }
        });
        return carriedView({
          found,
          entries,
          owners,
          field: "content",
          write: (merged) => fromNeutralEntries(merged, "messages"),
        });
      },
    });
  },
};
