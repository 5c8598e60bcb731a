import { type ConversationFormat, type FormatReading, isPlainObject, storedListOf } from "@toolcall/core/kit";
import { carriedView } from "./carried-view.js";
import { fromUiNeutralEntries } from "./from-ui-neutral.js";
import { readSavedList } from "./read-saved-list.js";
import { uiNeutralView } from "./ui-neutral-view.js";

const ROLES = new Set(["system", "user", "assistant"]);

/** An AI SDK 4 part (`tool-invocation` with a `toolInvocation` object): another format's. */
export function isInvocationPart(part: unknown): boolean {
  return isPlainObject(part) && part.type === "tool-invocation" && isPlainObject(part.toolInvocation);
}

/** A `UIMessage` of AI SDK 5 or 6: a role and `parts`, each a typed part (Gemini's parts have no `type`). */
function isUiMessage(value: unknown): boolean {
  return (
    isPlainObject(value) &&
    typeof value.role === "string" &&
    ROLES.has(value.role) &&
    Array.isArray(value.parts) &&
    !Array.isArray(value.toolInvocations) &&
    value.parts.every(
      (part) => isPlainObject(part) && typeof part.type === "string" && !isInvocationPart(part),
    )
  );
}

/**
 * Vercel AI SDK `UIMessage`s as `useChat` apps persist them (a saved chat: a list, or an object with `messages` such
 * as the body `useChat` posts): each `tool-<name>` or `dynamic-tool` part is a call (`input`, or the `rawInput` of a
 * call the SDK could not parse) and, once `output-available`, `output-error` or `output-denied`, its result; an
 * assistant message is split into steps at its `step-start` parts, as `convertToModelMessages` sends it. Read as
 * `sanitizeUIMessages` reads them: calls still waiting in the last message, calls a provider ran, data, file and
 * source parts stay as they are. Writing back rebuilds only the parts a rule changed (a call's `input` stays an
 * object; a call that never got a result ends `output-error`), every other message is the same object.
 *
 * @example
 * const reading = aiSdkUiMessagesFormat.read([
 *   { id: "a1", role: "assistant", parts: [{ type: "tool-weather", toolCallId: "c1", state: "output-available", input: { city: "Paris" }, output: "sunny" }] },
 * ]);
 * reading.conversations[0]?.messages.map((message) => message.role); // ["assistant", "tool"]
 */
export const aiSdkUiMessagesFormat: ConversationFormat = {
  id: "ai-sdk-ui-messages",
  name: "Vercel AI SDK UIMessages (useChat, tool-* parts)",
  expected:
    'a list of {id, role, parts} messages with {"type": "tool-<name>" | "dynamic-tool", toolCallId, state, input, output} parts, or an object with "messages"',
  unit: "record",
  // Above Gemini's contents (also `{role, parts}`): a UI message's parts are typed, Gemini's are not.
  priority: 32,
  matches: (value) => storedListOf({ value, isMessage: isUiMessage }) !== undefined,
  read(value): FormatReading {
    return readSavedList({
      value,
      what: "UI messages",
      refusal: 'neither a list of UI messages nor an object with "messages"',
      isMessage: isUiMessage,
      view(found) {
        const { entries, owners } = uiNeutralView(found.list);
        return carriedView({
          found,
          entries,
          owners,
          field: "parts",
          write: (merged) => fromUiNeutralEntries({ messages: found.list, entries: merged }),
        });
      },
    });
  },
};
