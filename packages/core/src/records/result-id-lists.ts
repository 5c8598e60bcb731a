import { isPlainObject } from "../define-property.js";
import { originOf, withOrigin } from "../origin.js";

/** A tool message answering several calls at once: `tool_call_ids` a list, no `tool_call_id` (SWE-agent). */
function answersSeveral(message: unknown): message is Record<string, unknown> & { tool_call_ids: unknown[] } {
  return (
    isPlainObject(message) &&
    message.role === "tool" &&
    typeof message.tool_call_id !== "string" &&
    Array.isArray(message.tool_call_ids)
  );
}

interface Share {
  source: number;
  share: number;
  of: number;
}

/** Tags a neutral result as one share of a source message (kept apart from any origin a format noted). */
const SHARE = Symbol("share of a result with several ids");

/**
 * Messages in which a tool result lists the calls it answers (`"tool_call_ids": ["call_1"]`, as SWE-agent stores its
 * history) read as core's neutral view: one result per id, each with its `tool_call_id`, so each call is paired;
 * `join` puts a repaired list back in the source's shape, the source message whole where all its shares are kept as
 * they were, gone where all were dropped. `undefined` when no message lists ids (the messages are the view as they are).
 *
 * @example
 * const split = splitResultIdLists([{ role: "tool", tool_call_ids: ["a", "b"], content: "ok" }]);
 * split?.messages.map((m) => m.tool_call_id); // ["a", "b"]
 */
export function splitResultIdLists(messages: readonly unknown[]):
  | {
      messages: Array<Record<string, unknown>>;
      join(next: readonly unknown[]): { ok: true; value: unknown[] } | { ok: false; reason: string };
    }
  | undefined {
  if (!messages.some(answersSeveral)) return undefined;
  const view: Array<Record<string, unknown>> = [];
  messages.forEach((message, source) => {
    if (!answersSeveral(message)) {
      view.push(message as Record<string, unknown>);
      return;
    }
    const ids = message.tool_call_ids;
    const { tool_call_ids: _ids, ...rest } = message;
    const of = Math.max(ids.length, 1);
    for (let share = 0; share < of; share++) {
      const neutral: Record<string, unknown> = { ...rest, tool_call_id: ids[share] };
      const origin = originOf(message);
      if (origin !== undefined) withOrigin(neutral, origin);
      Object.defineProperty(neutral, SHARE, {
        value: { source, share, of } satisfies Share,
        enumerable: true,
      });
      view.push(neutral);
    }
  });
  return {
    messages: view,
    join(next) {
      const out: unknown[] = [];
      const seen = new Map<number, Array<Record<string, unknown>>>();
      const at = new Map<number, number>();
      for (const message of next) {
        const share = isPlainObject(message)
          ? ((message as Record<symbol, unknown>)[SHARE] as Share | undefined)
          : undefined;
        if (share === undefined) {
          out.push(message);
          continue;
        }
        const list = seen.get(share.source) ?? [];
        if (list.length === 0) {
          at.set(share.source, out.length);
          out.push(messages[share.source]);
        }
        list.push(message as Record<string, unknown>);
        seen.set(share.source, list);
      }
      for (const [source, list] of seen) {
        const original = messages[source] as Record<string, unknown> & { tool_call_ids: unknown[] };
        const of = Math.max(original.tool_call_ids.length, 1);
        // A result answering one call may change; one of several only with the others, as the same text.
        const whole =
          list.length === of && (of === 1 || list.every((message) => message.content === original.content));
        if (!whole)
          return {
            ok: false,
            reason: `messages[${source}]: one result of the ${of} its tool_call_ids name cannot change alone`,
          };
        const ids = list.map((message) => message.tool_call_id);
        const content = (list[0] as Record<string, unknown>).content;
        const sameIds = ids.every((id, i) => id === original.tool_call_ids[i]);
        if (sameIds && content === original.content) continue;
        // Ids renamed (a duplicate made unique) or the one result's text changed: the entry written with them.
        const copy: Record<string, unknown> = {};
        for (const key of Object.keys(original))
          Object.defineProperty(copy, key, {
            value: key === "tool_call_ids" ? ids : key === "content" ? content : original[key],
            writable: true,
            enumerable: true,
            configurable: true,
          });
        out[at.get(source) as number] = copy;
      }
      return { ok: true, value: out };
    },
  };
}
