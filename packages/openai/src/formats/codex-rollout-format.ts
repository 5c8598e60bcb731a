import { type ConversationFormat, type FormatReading, isPlainObject } from "@toolcall/core/kit";
import { applyItemEdits, readResponseItems } from "./responses-items.js";

const LINE_TYPES = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted"]);

function isRolloutLine(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && typeof value.type === "string" && "payload" in value;
}

/**
 * Codex CLI session files (`~/.codex/sessions/…/rollout-*.jsonl`, from openai/codex): one JSON line per event,
 * `{timestamp, type, payload}`. The conversation is the `response_item` lines, whose payloads are Responses API items
 * (read as {@link readResponseItems} reads them); `session_meta`, `turn_context` and `event_msg` lines stay as they
 * are. Writing back changes or drops `response_item` lines and adds a synthesized `function_call_output` line after
 * the line it follows (with that line's timestamp); every other line is the same object.
 *
 * @example
 * const reading = codexRolloutFormat.read(lines);
 * reading.conversations[0].messages; // the session's messages and calls
 */
export const codexRolloutFormat: ConversationFormat = {
  id: "codex-rollout",
  name: "Codex CLI session (rollout JSONL)",
  expected: 'JSON lines of {"timestamp", "type": "session_meta" | "response_item" | …, "payload"}',
  unit: "session",
  priority: 20,
  matches(value) {
    if (!Array.isArray(value) || value.length === 0) return false;
    const sample = value.slice(0, 8);
    return sample.every(isRolloutLine) && sample.some((line) => LINE_TYPES.has(line.type as string));
  },
  read(value): FormatReading {
    const lines = Array.isArray(value) ? value : [];
    const itemLines: number[] = [];
    const items: unknown[] = [];
    lines.forEach((line, index) => {
      if (isRolloutLine(line) && line.type === "response_item") {
        itemLines.push(index);
        items.push(line.payload);
      }
    });
    const reading = readResponseItems(items);
    return {
      conversations: [
        {
          messages: reading.messages,
          placeOf(path) {
            const item = reading.itemAt(path);
            const line = item === undefined ? undefined : itemLines[item];
            return line === undefined ? "the session" : `record ${line + 1} (payload)`;
          },
        },
      ],
      issues: [],
      write([messages]) {
        if (messages === undefined) return { ok: true, value: lines };
        const result = reading.edits(messages);
        if (!result.ok) return result;
        const { edits } = result;
        // The item list's edits, carried over to lines: an item is a line's payload.
        const lineOf = (item: number) => itemLines[item] as number;
        const replaced = new Map<number, unknown>();
        for (const [item, payload] of edits.replaced) {
          replaced.set(lineOf(item), { ...(lines[lineOf(item)] as object), payload });
        }
        const dropped = new Set([...edits.dropped].map(lineOf));
        const inserted = new Map<number, unknown[]>();
        for (const [item, payloads] of edits.inserted) {
          const anchor = item === -1 ? -1 : lineOf(item);
          const template = anchor === -1 ? undefined : (lines[anchor] as Record<string, unknown>);
          inserted.set(
            anchor,
            payloads.map((payload) => ({
              ...(template?.timestamp === undefined ? {} : { timestamp: template.timestamp }),
              type: "response_item",
              payload,
            })),
          );
        }
        return { ok: true, value: applyItemEdits(lines, { replaced, dropped, inserted }) };
      },
    };
  },
};
