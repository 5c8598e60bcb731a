import type { ChatMessage } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatReading,
  guardedReading,
  isPlainObject,
  storedListOf,
  withStoredList,
} from "@toolcall/core/kit";
import { fromUiNeutralEntries } from "./from-ui-neutral.js";
import { AI_SDK_ORIGIN, AI_SDK_PART, getTag } from "./origin.js";
import { mergeCarried, placeOfPart, splitCarried } from "./stored-list.js";
import { type UiOrigin, uiNeutralView } from "./ui-neutral-view.js";

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
    return guardedReading({
      value,
      what: "UI messages",
      read: (): FormatReading => {
        const found = storedListOf({ value, isMessage: isUiMessage, allowEmpty: true });
        if (found === undefined) {
          return {
            conversations: [],
            issues: [
              {
                code: "record_not_conversation",
                severity: "error",
                message: 'neither a list of UI messages nor an object with "messages"',
                path: [],
              },
            ],
            write: () => ({ ok: true, value }),
          };
        }
        const { entries, owners } = uiNeutralView(found.list);
        const { messages, carried } = splitCarried({ entries, owners });
        const indexOf = new Map<unknown, number>(found.list.map((message, index) => [message, index]));
        return {
          conversations: [
            {
              messages: messages as ChatMessage[],
              placeOf(path) {
                const entry = typeof path[0] === "number" ? messages[path[0]] : undefined;
                const origin = getTag<UiOrigin>(entry, AI_SDK_ORIGIN);
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
                  field: "parts",
                  ...(part === undefined ? {} : { part }),
                });
              },
            },
          ],
          issues: [],
          write([next]) {
            if (next === undefined) return { ok: true, value };
            const list = fromUiNeutralEntries({
              messages: found.list,
              entries: mergeCarried({ next, carried, indexOf }),
            });
            return { ok: true, value: withStoredList({ value, found, list }) };
          },
        };
      },
    });
  },
};
