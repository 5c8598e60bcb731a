import type { ChatMessage, ToolDefinition } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatIssue,
  type FormatReading,
  guardedReading,
  isPlainObject,
  originOf,
  placeOfPath,
  storedListOf,
  withOrigin,
  withStoredList,
} from "@toolcall/core/kit";
import { neutralMessage, writeMessages } from "./cohere-messages.js";

/** Request keys only Cohere's v2 Chat API has (OpenAI's sampling keys are `top_p`, `top_k`). */
const COHERE_KEYS = ["documents", "citation_options", "safety_mode", "strict_tools", "p", "k"];

/**
 * The text Cohere refuses an assistant message with when it holds both text content and calls (`{place}` is where
 * the text is).
 *
 * @example
 * TEXT_BESIDE_CALLS.replace("{place}", "messages[2].content[0]");
 */
export const TEXT_BESIDE_CALLS =
  "text content is not allowed when tool_calls are provided. If you wish to pass a tool plan, either pass thinking content (with thinking enabled) or use 'tool_plan': '{place}'";

function hasCohereMark(message: unknown): boolean {
  if (!isPlainObject(message)) return false;
  if (message.role === "assistant" && "tool_plan" in message) return true;
  // A tool message's document (`{type: "document", document: {data}}`); Anthropic's document blocks have a `source`.
  return (
    message.role === "tool" &&
    Array.isArray(message.content) &&
    message.content.some(
      (part) => isPlainObject(part) && part.type === "document" && isPlainObject(part.document),
    )
  );
}

/**
 * Cohere's v2 Chat API (`POST /v2/chat`): `{model, messages, tools?, documents?, …}` or a bare list of messages in
 * OpenAI Chat's shapes (calls with `function.arguments` as JSON text, `tool` messages with `tool_call_id`), plus what
 * only Cohere has: an assistant's `tool_plan` beside its calls, a tool message's `document` parts, and its own
 * request keys (`documents`, `citation_options`, `safety_mode`, `p`, `k`). Claimed ahead of OpenAI Chat only when
 * something Cohere's is there. Read into core's neutral view with a tool message's documents as their text and an
 * assistant's `thinking` parts as reasoning; written back with every message the rules left alone the same object,
 * a changed one with its changed keys (its document list kept), a synthesized result as a `tool` message. Text
 * content beside calls, which Cohere refuses, is core's `cohere` profile's finding (`text_beside_calls`); its fix
 * moves the text to `tool_plan`, written back with the message's other content parts kept.
 *
 * @example
 * cohereChatFormat.matches({ model: "command-a-03-2025", messages: [{ role: "assistant", tool_plan: "I will search.", tool_calls }] }); // true
 */
export const cohereChatFormat: ConversationFormat = {
  id: "cohere-chat",
  name: "Cohere v2 Chat (tool_plan, tool_calls, tool messages)",
  expected:
    '{"model", "messages": [{role, content, tool_plan?, tool_calls?: [{id, function: {name, arguments}}]}, {"role": "tool", tool_call_id, content}]}',
  unit: "record",
  // Above Anthropic Messages (30), whose request shape a Cohere body with documents would otherwise resemble; what
  // claims a value for Cohere (a `tool_plan`, a tool message's `document` part, Cohere's own keys) is Cohere's alone.
  priority: 35,
  matches(value) {
    try {
      return isCohere(value);
    } catch {
      return false;
    }
  },
  resembles: (value) => isPlainObject(value) && "tool_plan" in value,
  read: (value) => guardedReading({ value, what: "a Cohere record", read: () => readCohere(value) }),
};

/** A message as Cohere has one: an object with a role. */
const isCohereMessage = (message: unknown) => isPlainObject(message) && typeof message.role === "string";

function isCohere(value: unknown): boolean {
  const found = storedListOf({ value, isMessage: isCohereMessage });
  if (found === undefined) return false;
  if (found.list.some(hasCohereMark)) return true;
  return isPlainObject(value) && COHERE_KEYS.some((key) => key in value);
}

function readCohere(value: unknown): FormatReading {
  const found = storedListOf({ value, isMessage: () => true, allowEmpty: true });
  if (found === undefined)
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
  const messages = found.list.map((raw, index) => withOrigin(neutralMessage(raw), index) as ChatMessage);
  const before = new Map(messages.map((message) => [originOf(message), message]));
  const issues: FormatIssue[] = [];
  const tools =
    isPlainObject(value) && Array.isArray(value.tools) ? (value.tools as ToolDefinition[]) : undefined;
  return {
    conversations: [
      {
        messages,
        ...(tools ? { tools } : {}),
        placeOf: (path) => placeOfPath({ prefix: found.key ?? "", path }),
      },
    ],
    issues,
    write([next]) {
      if (next === undefined) return { ok: true, value };
      const written = writeMessages({ list: found.list, next, before });
      if (!written.ok) return written;
      return { ok: true, value: withStoredList({ value, found, list: written.value as unknown[] }) };
    },
  };
}
