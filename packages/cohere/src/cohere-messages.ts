import { isPlainObject, originOf, serializeJson } from "@toolcall/core/kit";

type Item = Record<string, unknown>;
type Written = { ok: true; value: unknown } | { ok: false; reason: string };

/** A Cohere content part as text: a text part's text, a document's `data` (as JSON text unless it is a string). */
function partText(part: unknown): string {
  if (!isPlainObject(part)) return "";
  if (part.type === "text" && typeof part.text === "string") return part.text;
  if (part.type === "document" && isPlainObject(part.document)) {
    const data = part.document.data;
    if (typeof data === "string") return data;
    const written = serializeJson(data);
    return written.success ? written.value : "";
  }
  return "";
}

/**
 * A Cohere message in core's neutral view: a copy, with a tool message's content list (documents, text) as its
 * text, and an assistant's content list as its text parts' text and its `thinking` parts as reasoning. Everything
 * else (`tool_plan`, calls with JSON-text arguments) is already OpenAI Chat's shape.
 */
export function neutralMessage(raw: unknown): Item {
  if (!isPlainObject(raw)) return { content: raw };
  const copy: Item = { ...raw };
  if (!Array.isArray(raw.content)) return copy;
  if (raw.role === "tool") copy.content = raw.content.map(partText).join("\n");
  else if (raw.role === "assistant") {
    const texts = raw.content.filter((part) => isPlainObject(part) && part.type === "text").map(partText);
    const thoughts = raw.content
      .filter((part) => isPlainObject(part) && part.type === "thinking" && typeof part.thinking === "string")
      .map((part) => (part as { thinking: string }).thinking);
    copy.content = texts.length > 0 ? texts.join("") : Array.isArray(raw.tool_calls) ? null : "";
    if (thoughts.length > 0) copy.reasoning_content = thoughts.join("");
  }
  return copy;
}

/** The keys whose values differ between a message as read and as the rules give it back. */
function changedKeys(now: Item, old: Item): string[] {
  const keys = new Set([...Object.keys(now), ...Object.keys(old)]);
  return [...keys].filter((key) => now[key] !== old[key]);
}

/**
 * The record's messages as a sanitized history has them: a message the rules left alone is the record's own object;
 * one they changed is written with its changed keys (a list content read as text stays the list: a change to it has
 * no Cohere form); a message they added is written as it is (a synthesized tool message, OpenAI Chat's shape).
 * The same list when nothing changed.
 */
export function writeMessages(options: {
  list: readonly unknown[];
  next: readonly unknown[];
  before: ReadonlyMap<unknown, unknown>;
}): Written {
  const { list, next, before } = options;
  const out: unknown[] = [];
  for (const message of next) {
    if (!isPlainObject(message)) return { ok: false, reason: "a message is not an object" };
    const index = originOf(message) as number | undefined;
    if (index === undefined) {
      out.push({ ...message });
      continue;
    }
    const raw = list[index];
    const old = before.get(index) as Item | undefined;
    if (old === undefined || !isPlainObject(raw)) {
      out.push(raw);
      continue;
    }
    const changed = changedKeys(message, old);
    if (changed.length === 0) {
      out.push(raw);
      continue;
    }
    const listed = Array.isArray(raw.content);
    // The text moved to `tool_plan` (core's `cohere` fix): the content keeps its other parts, or goes.
    const moved = changed.includes("content") && message.content === undefined && "tool_plan" in message;
    if (listed && !moved && (changed.includes("content") || changed.includes("reasoning_content")))
      return { ok: false, reason: `messages[${index}]: a changed list content has no single text to go in` };
    const rest =
      moved && listed
        ? (raw.content as unknown[]).filter((part) => !isPlainObject(part) || part.type !== "text")
        : [];
    const copy: Item = {};
    for (const key of Object.keys(raw)) {
      if (key === "content" && moved && rest.length === 0) continue;
      if (key in message || key === "content")
        Object.defineProperty(copy, key, {
          value: key === "content" && listed ? (moved ? rest : raw.content) : message[key],
          writable: true,
          enumerable: true,
          configurable: true,
        });
    }
    for (const key of Object.keys(message))
      if (!(key in raw) && !(listed && key === "reasoning_content")) copy[key] = message[key];
    out.push(copy);
  }
  const same = out.length === list.length && out.every((message, i) => message === list[i]);
  return { ok: true, value: same ? list : out };
}
