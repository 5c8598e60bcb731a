import { isPlainObject } from "../define-property.js";
import type { SanitizeChange } from "../sanitize-options.js";

/** A turn that says nothing: an assistant message with no content and no call (`""`, `[]`, `null`, `tool_calls: []`). */
function isEmptyTurn(message: unknown): boolean {
  if (!isPlainObject(message)) return false;
  try {
    if (message.role !== "assistant") return false;
    const calls = message.tool_calls;
    if (calls !== undefined && calls !== null && !(Array.isArray(calls) && calls.length === 0)) return false;
    const content = message.content;
    return (
      content === "" ||
      content === null ||
      content === undefined ||
      (Array.isArray(content) && content.length === 0)
    );
  } catch {
    // A field whose getter throws (or a proxy that refuses): no empty turn to keep; sanitize reads such a message.
    return false;
  }
}

/**
 * Sanitizes a history keeping its empty assistant turns where they are: no rule of core asks for them to go, and a
 * data set's alternation (`human, gpt, human`) breaks when one does. Each empty turn stands in sanitize's input as a
 * turn with text, and comes back as it was, the same object.
 *
 * @example
 * keepEmptyTurns({ messages, sanitize: (m) => sanitizeHistory(m) }).messages; // the empty `gpt` turn still there
 */
export function keepEmptyTurns(options: {
  messages: readonly unknown[];
  sanitize: (messages: unknown[]) => { messages: unknown[]; changes: SanitizeChange[] };
}): { messages: unknown[]; changes: SanitizeChange[] } {
  const { messages, sanitize } = options;
  const originals = new Map<unknown, unknown>();
  const input = messages.map((message) => {
    if (!isEmptyTurn(message)) return message;
    const standIn = { role: "assistant", content: "(empty turn)" };
    originals.set(standIn, message);
    return standIn;
  });
  if (originals.size === 0) return sanitize(messages as unknown[]);
  const result = sanitize(input);
  if (result.changes.length === 0) return { messages: messages as unknown[], changes: [] };
  return {
    messages: result.messages.map((message) => originals.get(message) ?? message),
    changes: result.changes,
  };
}
