import type { ChatMessage } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatReading,
  isPlainObject,
  originOf,
  splitResultIdLists,
  withOrigin,
} from "@toolcall/core/kit";

/** Lines Kimi CLI writes beside the messages: restore points and token counts. */
const MARKER_ROLES = new Set(["_checkpoint", "_usage"]);

function isLine(value: unknown): value is Record<string, unknown> & { role: string } {
  return isPlainObject(value) && typeof value.role === "string";
}

/**
 * Kimi CLI session context (`~/.kimi/sessions/<work dir>/<session>/context.jsonl`): one JSON line per message, in
 * OpenAI Chat's shape (content as a string or `{type: "text", text}` parts, `tool_calls` with ids such as `Bash:4`,
 * `tool_call_id` on results), among `_checkpoint` and `_usage` lines that mark restore points and token counts. The
 * messages are core's neutral view as they are; the marker lines are carried through untouched. Writing back changes
 * or drops message lines and adds a synthesized result as a `tool` line after the line it follows; every other line
 * is the same object.
 *
 * @example
 * const reading = kimiCliContextFormat.read(lines);
 * reading.conversations[0].messages; // the session's messages, markers left out
 */
export const kimiCliContextFormat: ConversationFormat = {
  id: "kimi-cli-context",
  name: "Kimi CLI session context (context.jsonl)",
  expected: 'JSON lines of {"role": "user" | "assistant" | "tool" | "_checkpoint" | "_usage", …}',
  unit: "session",
  priority: 20,
  matches(value) {
    if (!Array.isArray(value) || value.length === 0) return false;
    const sample = value.slice(0, 8);
    return sample.every(isLine) && sample.some((line) => MARKER_ROLES.has(line.role));
  },
  read(value): FormatReading {
    const lines = Array.isArray(value) ? value : [];
    const messageLines: number[] = [];
    lines.forEach((line, index) => {
      if (isLine(line) && !MARKER_ROLES.has(line.role)) messageLines.push(index);
    });
    // Copies tagged with their line: a message a rule rewrote still says where it came from.
    const source = messageLines.map((index) => withOrigin({ ...(lines[index] as object) }, { line: index }));
    const split = splitResultIdLists(source);
    const messages = (split?.messages ?? source) as ChatMessage[];
    return {
      conversations: [
        {
          messages,
          placeOf(path) {
            const message = typeof path[0] === "number" ? messages[path[0]] : undefined;
            const origin = originOf(message) as { line: number } | undefined;
            return origin === undefined ? "the session" : `record ${origin.line + 1}`;
          },
        },
      ],
      issues: [],
      write([next]) {
        if (next === undefined) return { ok: true, value };
        const joined = split === undefined ? { ok: true as const, value: next } : split.join(next);
        if (!joined.ok) return joined;
        const kept = new Map<number, unknown>();
        const inserted = new Map<number, unknown[]>();
        let anchor = -1;
        for (const message of joined.value) {
          const origin = originOf(message) as { line: number } | undefined;
          if (origin === undefined) {
            const list = inserted.get(anchor) ?? [];
            list.push(message);
            inserted.set(anchor, list);
            continue;
          }
          anchor = origin.line;
          // A message no rule changed is its line as read.
          kept.set(origin.line, source.includes(message as never) ? lines[origin.line] : message);
        }
        const out: unknown[] = [...(inserted.get(-1) ?? [])];
        lines.forEach((line, index) => {
          if (!messageLines.includes(index)) out.push(line);
          else if (kept.has(index)) out.push(kept.get(index));
          out.push(...(inserted.get(index) ?? []));
        });
        const same = out.length === lines.length && out.every((line, i) => line === lines[i]);
        return { ok: true, value: same ? value : out };
      },
    };
  },
};
