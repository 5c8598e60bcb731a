import type { ChatMessage, ToolDefinition } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatReading,
  isPlainObject,
  placeOfPath,
  splitResultIdLists,
} from "@toolcall/core/kit";

/** Keys that make an object a container of conversations or an item of another format, not a message. */
const NOT_MESSAGE_KEYS = ["messages", "conversations", "choices", "input", "output", "from", "payload"];

/**
 * True for a value that reads as one OpenAI Chat message: an object with a role, content or tool calls, and none of
 * the keys of a conversation or of another format's item. A message missing its role still reads as one (it is then
 * reported), so `[{"content": "hi"}]` is a conversation with an issue, not an unknown file.
 *
 * @example
 * isChatMessageLike({ content: "hi" }); // true
 * isChatMessageLike({ messages: [] }); // false
 */
export function isChatMessageLike(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  if (NOT_MESSAGE_KEYS.some((key) => key in value)) return false;
  if (typeof value.type === "string" && !("role" in value)) return false;
  return "role" in value || "content" in value || "tool_calls" in value;
}

function isMessageList(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every(isChatMessageLike);
}

function toolsOf(value: Record<string, unknown>): ToolDefinition[] | undefined {
  return Array.isArray(value.tools) ? (value.tools as ToolDefinition[]) : undefined;
}

/** The record with its messages replaced, every other key kept in its place. */
function withMessages(
  record: Record<string, unknown>,
  messages: readonly unknown[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    Object.defineProperty(out, key, {
      value: key === "messages" ? messages : record[key],
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * OpenAI Chat Completions conversations: a request body or a saved conversation (`{ messages, tools?, … }`, every
 * other key kept), or a bare list of messages. The messages are core's neutral view as they are (a tool result
 * listing its calls in `tool_call_ids`, as SWE-agent stores it, reads as one result per call); writing back
 * replaces `messages` and nothing else.
 *
 * @example
 * const reading = openaiChatFormat.read({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
 * reading.conversations[0].messages; // the request's messages, the same array
 */
export const openaiChatFormat: ConversationFormat = {
  id: "openai-chat",
  name: "OpenAI Chat messages",
  expected: 'a list of {role, content, tool_calls?} messages, or an object with "messages" (a request body)',
  unit: "record",
  priority: 0,
  matches(value) {
    if (isMessageList(value)) return true;
    // A conversation object may be empty (a data set's placeholder); a bare empty list says nothing.
    return (
      isPlainObject(value) &&
      Array.isArray(value.messages) &&
      (value.messages.length === 0 || isMessageList(value.messages))
    );
  },
  read(value): FormatReading {
    if (Array.isArray(value)) {
      const split = splitResultIdLists(value);
      return {
        conversations: [
          {
            messages: (split?.messages ?? value) as ChatMessage[],
            placeOf: (path) => placeOfPath({ prefix: "", path }),
          },
        ],
        issues: [],
        write: ([messages]) => {
          if (messages === undefined) return { ok: true, value };
          return split === undefined ? { ok: true, value: messages } : split.join(messages);
        },
      };
    }
    if (!isPlainObject(value) || !Array.isArray(value.messages)) {
      return {
        conversations: [],
        issues: [
          {
            code: "record_not_conversation",
            severity: "error",
            message: 'neither a list of messages nor an object with "messages"',
            path: [],
          },
        ],
        write: () => ({ ok: true, value }),
      };
    }
    const tools = toolsOf(value);
    // A result listing the calls it answers (`tool_call_ids`, SWE-agent) is one result per call in the view.
    const split = splitResultIdLists(value.messages);
    return {
      conversations: [
        {
          messages: (split?.messages ?? value.messages) as ChatMessage[],
          ...(tools ? { tools } : {}),
          placeOf: (path) => placeOfPath({ prefix: "messages", path }),
        },
      ],
      issues: [],
      write: ([messages]) => {
        if (messages === undefined) return { ok: true, value };
        const joined = split === undefined ? { ok: true as const, value: messages } : split.join(messages);
        return joined.ok ? { ok: true, value: withMessages(value, joined.value) } : joined;
      },
    };
  },
};
