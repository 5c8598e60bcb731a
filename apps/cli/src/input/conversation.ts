import type { ToolDefinition } from "@toolcall/core";
import { isPlainObject } from "@toolcall/core/kit";

/** A conversation found in an input: its messages, the tools it offers, and how to put repaired messages back. */
export interface Conversation {
  messages: unknown[];
  tools?: readonly ToolDefinition[];
  /** `array`: the value is the list of messages. `object`: the value has `messages` (and maybe `tools`, metadata). */
  shape: "array" | "object";
}

/**
 * Reads a parsed JSON value as a conversation: a list of messages, or an object with a `messages` list (and an
 * optional `tools` list). Anything else is not a conversation.
 *
 * @example
 * toConversation({ messages: [{ role: "user", content: "hi" }], tools: [] }); // { messages: [...], tools: [], shape: "object" }
 * toConversation(42); // undefined
 */
export function toConversation(value: unknown): Conversation | undefined {
  if (Array.isArray(value)) return { messages: value, shape: "array" };
  if (!isPlainObject(value) || !Array.isArray(value.messages)) return undefined;
  const tools = Array.isArray(value.tools) ? (value.tools as ToolDefinition[]) : undefined;
  return tools === undefined
    ? { messages: value.messages, shape: "object" }
    : { messages: value.messages, tools, shape: "object" };
}

/**
 * The value with its messages replaced, every other field kept in its place and order.
 *
 * @example
 * withMessages({ id: 7, messages: [] }, [{ role: "user", content: "hi" }]); // { id: 7, messages: [...] }
 */
export function withMessages(value: unknown, messages: unknown[]): unknown {
  if (Array.isArray(value)) return messages;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value as Record<string, unknown>)) {
    const field = key === "messages" ? messages : (value as Record<string, unknown>)[key];
    // Keys are data (`__proto__` included): define, never assign.
    Object.defineProperty(out, key, { value: field, writable: true, enumerable: true, configurable: true });
  }
  return out;
}

/**
 * True for a JSON array whose items are all conversation objects (`{ messages: [...] }`) rather than messages: a
 * data set saved as one JSON array. It is refused with a hint instead of being checked as one odd conversation.
 *
 * @example
 * isConversationList([{ messages: [] }, { messages: [] }]); // true
 * isConversationList([{ role: "user", content: "hi" }]); // false
 */
export function isConversationList(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((item) => isPlainObject(item) && Array.isArray(item.messages) && item.role === undefined)
  );
}
