import { type ConversationFormat, type FormatReading, isPlainObject } from "@toolcall/core/kit";
import {
  type AnthropicMessageView,
  addressKey,
  applyBlockEdits,
  type BlockAddress,
  readAnthropicMessages,
} from "./anthropic-blocks.js";

type Line = Record<string, unknown> & { message?: unknown };

function isTranscriptLine(value: unknown): value is Line {
  return isPlainObject(value) && typeof value.type === "string" && !("payload" in value);
}

function messageOf(line: unknown): Record<string, unknown> | undefined {
  return isTranscriptLine(line) &&
    (line.type === "user" || line.type === "assistant") &&
    isPlainObject(line.message)
    ? line.message
    : undefined;
}

/**
 * The messages of a transcript: one view per user line, and one per run of assistant lines of one response (Claude
 * Code writes each block of a streamed answer on a line of its own, every line with the same `message.id`).
 */
function viewsOf(lines: readonly unknown[]): AnthropicMessageView[] {
  const views: AnthropicMessageView[] = [];
  let open: { id: unknown; view: AnthropicMessageView } | undefined;
  lines.forEach((line, index) => {
    const message = messageOf(line);
    if (message === undefined) return;
    const content = message.content;
    const addresses: BlockAddress[] = Array.isArray(content)
      ? content.map((_, block) => ({ message: index, block }))
      : [{ message: index, block: -1 }];
    const id = message.id;
    if (
      message.role === "assistant" &&
      open !== undefined &&
      id !== undefined &&
      open.id === id &&
      Array.isArray(content) &&
      Array.isArray(open.view.content)
    ) {
      open.view.content = [...open.view.content, ...content];
      open.view.addresses.push(...addresses);
      return;
    }
    const view = { role: message.role, content, addresses };
    views.push(view);
    open = message.role === "assistant" && Array.isArray(content) ? { id, view } : undefined;
  });
  return views;
}

/**
 * Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`): one JSON line per event, `{type, uuid,
 * parentUuid, message, …}`; the `user` and `assistant` lines hold Anthropic messages (the lines of one streamed answer
 * are one message). Other lines (`summary`, `system`, snapshots) stay as they are. Writing back changes blocks in
 * place; a line left with no block is removed and the lines that pointed to it (`parentUuid`) point to its parent; a
 * synthesized tool result goes into the next user line, or, at the end of the session, into a new line after the last.
 *
 * @example
 * const reading = claudeCodeFormat.read(lines);
 * reading.conversations[0].messages; // the session as neutral messages
 */
export const claudeCodeFormat: ConversationFormat = {
  id: "claude-code",
  name: "Claude Code transcript (JSONL)",
  expected:
    'JSON lines of {"type": "user" | "assistant" | "summary" | …, "message": {role, content}, "uuid", …}',
  unit: "session",
  priority: 30,
  matches(value) {
    if (!Array.isArray(value) || value.length === 0) return false;
    const sample = value.slice(0, 8);
    return sample.every(isTranscriptLine) && sample.some((line) => messageOf(line) !== undefined);
  },
  read(value): FormatReading {
    const lines = Array.isArray(value) ? value : [];
    const reading = readAnthropicMessages(viewsOf(lines));
    const placeOfBlock = (address: BlockAddress, field: Array<string | number>) => {
      const block = address.block === -1 ? "" : `.content[${address.block}]`;
      return `record ${address.message + 1} (message${block}${field.length > 0 ? `.${field.join(".")}` : ""})`;
    };
    return {
      conversations: [
        {
          messages: reading.messages,
          placeOf(path) {
            const place = reading.placeAt(path);
            return place === undefined ? "the session" : placeOfBlock(place.address, place.field);
          },
        },
      ],
      issues: reading.issues.map(({ address, ...found }) => ({
        ...found,
        path: [address.message, "message", "content", address.block],
        place: placeOfBlock(address, []),
      })),
      write([next]) {
        if (next === undefined) return { ok: true, value };
        const result = reading.edits(next);
        if (!result.ok) return result;
        const { edits } = result;
        const lastMessageLine = lines.reduce<number>((last, line, i) => (messageOf(line) ? i : last), -1);
        for (const after of edits.messagesAfter.keys()) {
          if (after !== lastMessageLine) {
            return { ok: false, reason: "a Claude Code transcript takes a new line only at its end" };
          }
        }
        const out: unknown[] = [];
        const relink = new Map<unknown, unknown>();
        let changed = false;
        lines.forEach((line, index) => {
          const message = messageOf(line);
          let kept: unknown = line;
          if (message !== undefined) {
            const content = applyBlockEdits(index, message.content, edits);
            // A line whose message has no `content` (a key misspelled) is kept unless a rule dropped it.
            const whole = edits.dropped.has(addressKey({ message: index, block: -1 }));
            if (content === undefined && (message.content !== undefined || whole)) {
              changed = true;
              relink.set((line as Line).uuid, (line as Line).parentUuid);
              return;
            }
            if (content !== message.content) {
              changed = true;
              kept = { ...(line as Line), message: { ...message, content } };
            }
          }
          const parent = isTranscriptLine(kept) ? kept.parentUuid : undefined;
          if (parent !== undefined && relink.has(parent)) {
            let target = relink.get(parent);
            while (relink.has(target)) target = relink.get(target);
            kept = { ...(kept as Line), parentUuid: target };
            changed = true;
          }
          out.push(kept);
          const added = edits.messagesAfter.get(index);
          if (added !== undefined) {
            const template = kept as Line;
            changed = true;
            out.push({
              parentUuid: template.uuid ?? null,
              isSidechain: template.isSidechain ?? false,
              ...(template.sessionId === undefined ? {} : { sessionId: template.sessionId }),
              type: "user",
              message: { role: "user", content: added },
              uuid: globalThis.crypto.randomUUID(),
              ...(template.timestamp === undefined ? {} : { timestamp: template.timestamp }),
            });
          }
        });
        return { ok: true, value: changed ? out : value };
      },
    };
  },
};
