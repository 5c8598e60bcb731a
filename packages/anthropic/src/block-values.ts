import { isPlainObject, serializeJson } from "@toolcall/core/kit";

/** A tool's input as neutral wire text: the JSON text of whatever it is (a string input is a JSON string). */
export function argumentsOf(input: unknown): unknown {
  if (input === undefined) return undefined;
  const written = serializeJson(input);
  return written.success ? written.value : input;
}

/** Text blocks as neutral text parts (one text block reads as its text); other blocks stay out of the view. */
export function textParts(blocks: readonly unknown[]): Array<{ type: "text"; text: unknown }> {
  return blocks
    .filter((block) => isPlainObject(block) && block.type === "text")
    .map((block) => ({ type: "text" as const, text: (block as { text?: unknown }).text }));
}

/** A tool result's content in the neutral view: text, or its text blocks as parts. */
export function resultContent(content: unknown): unknown {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  return Array.isArray(content) ? textParts(content) : content;
}

/** A copy of an object with one key set (defined, never assigned: keys are data). */
export function setKey(
  target: Record<string, unknown>,
  key: string,
  value: unknown,
): Record<string, unknown> {
  const copy = { ...target };
  Object.defineProperty(copy, key, { value, writable: true, enumerable: true, configurable: true });
  return copy;
}

/** A tool result's content with a note in front, in the block's own form. */
export function withNote(content: unknown, note: string): unknown {
  if (Array.isArray(content)) return [{ type: "text", text: note }, ...content];
  if (typeof content === "string") return `${note}\n${content}`;
  return note;
}
