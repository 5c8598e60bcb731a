import {
  type ConversationFormat,
  type FormatReading,
  type FormatWriteResult,
  isPlainObject,
} from "@toolcall/core/kit";
import { geminiCliSessionFormat } from "./gemini-cli-session-format.js";
import { withKey } from "./with-key.js";

type Item = Record<string, unknown>;

/** Where the version of a message record that counts is: its own line, or item `item` of a line's message list. */
interface Source {
  line: number;
  /** `["$set", "messages"]` for a checkpoint, `["messages"]` for a metadata line that holds the messages. */
  list?: readonly string[];
  item?: number;
}

const isMessage = (value: unknown): value is Item & { id: string } =>
  isPlainObject(value) && typeof value.id === "string" && typeof value.type === "string";
const isRewind = (value: unknown): value is Item & { $rewindTo: string } =>
  isPlainObject(value) && typeof value.$rewindTo === "string";
const isUpdate = (value: unknown): value is Item & { $set: Item } =>
  isPlainObject(value) && isPlainObject(value.$set);
const isMetadata = (value: unknown): value is Item =>
  isPlainObject(value) && typeof value.sessionId === "string" && typeof value.projectHash === "string";

/**
 * The session as Gemini CLI loads it: metadata lines merged, and each message id mapped to the version that counts
 * (a later line with the same id replaces it in place; `$rewindTo` removes it and all after it, or everything when
 * the id is unknown; a `$set` with `messages` is a checkpoint that starts the list again).
 */
function replay(lines: readonly unknown[]): { metadata: Item; sources: Map<string, Source> } {
  const sources = new Map<string, Source>();
  let metadata: Item = {};
  const restart = (line: number, list: readonly string[], messages: readonly unknown[]) => {
    sources.clear();
    messages.forEach((message, item) => {
      if (isMessage(message)) sources.set(message.id, { line, list, item });
    });
  };
  lines.forEach((value, line) => {
    if (isRewind(value)) {
      const ids = [...sources.keys()];
      const at = ids.indexOf(value.$rewindTo);
      if (at === -1) sources.clear();
      else for (const id of ids.slice(at)) sources.delete(id);
    } else if (isMessage(value)) {
      sources.set(value.id, { line });
    } else if (isUpdate(value)) {
      if (Array.isArray(value.$set.messages)) restart(line, ["$set", "messages"], value.$set.messages);
      metadata = { ...metadata, ...value.$set };
    } else if (isMetadata(value)) {
      metadata = { ...metadata, ...value };
      if (Array.isArray(value.messages)) restart(line, ["messages"], value.messages);
    }
  });
  return { metadata, sources };
}

function recordAt(lines: readonly unknown[], source: Source): unknown {
  let value = lines[source.line];
  for (const key of source.list ?? []) value = isPlainObject(value) ? value[key] : undefined;
  return source.item === undefined ? value : Array.isArray(value) ? value[source.item] : undefined;
}

/** A copy of `line` with the record at `source` replaced; every other part the same object. */
function replaced(line: Item, source: Source, record: unknown): Item {
  if (source.list === undefined || source.item === undefined) return record as Item;
  const [outer, inner] = source.list as [string, string | undefined];
  if (inner === undefined) {
    const list = (line[outer] as unknown[]).slice();
    list[source.item] = record;
    return withKey(line, outer, list);
  }
  const holder = line[outer] as Item;
  const list = (holder[inner] as unknown[]).slice();
  list[source.item] = record;
  return withKey(line, outer, withKey(holder, inner, list));
}

/**
 * Gemini CLI chat sessions as JSON lines (`~/.gemini/tmp/<project>/chats/session-*.jsonl`, what its chat recording
 * appends since it left one JSON document per session): a metadata line (`sessionId`, `projectHash`, `startTime`,
 * `kind`), then one line per message record as it is recorded, a record written again with the same `id` each time
 * it grows (its tool calls, their results, its tokens), `{"$set": …}` lines updating the metadata (a `messages` list
 * among them is a checkpoint) and `{"$rewindTo": id}` lines that cut the conversation back. Read as Gemini CLI loads
 * it: the version of each record that counts, in order, through the `gemini-cli-session` reading (calls with their
 * `args`, results paired). Writing back replaces the line that holds the version that counts (or its item in a
 * checkpoint); every other line, earlier versions included, is the same object. A record a rule would remove is not
 * removed (a later line may name its id): the session is kept and the reason given.
 *
 * @example
 * const reading = geminiCliJsonlFormat.read(lines);
 * reading.conversations[0].messages; // user turns, the model's calls and their results, as the CLI resumes them
 */
export const geminiCliJsonlFormat: ConversationFormat = {
  id: "gemini-cli-jsonl",
  name: "Gemini CLI chat session (JSONL)",
  expected:
    'JSON lines: {"sessionId", "projectHash", …}, then {"id", "type": "user" | "gemini", "content", "toolCalls"?} | {"$set"} | {"$rewindTo"}',
  unit: "session",
  priority: 20,
  matches(value) {
    if (!Array.isArray(value) || value.length === 0 || !isMetadata(value[0])) return false;
    return value
      .slice(1, 9)
      .every((line) => (isMessage(line) && !("role" in line)) || isUpdate(line) || isRewind(line));
  },
  resembles: (value) =>
    Array.isArray(value) && isPlainObject(value[0]) && "sessionId" in value[0] && !("messages" in value[0]),
  read(value): FormatReading {
    const lines = Array.isArray(value) ? value : [];
    const { metadata, sources } = replay(lines);
    const order = [...sources.values()];
    const records = order.map((source) => recordAt(lines, source));
    const session = { ...metadata, sessionId: String(metadata.sessionId ?? ""), messages: records };
    const inner = geminiCliSessionFormat.read(session);
    const place = (text: string) =>
      text.replace(/^messages\[(\d+)\]/, (_, index: string) => {
        const source = order[Number(index)];
        if (source === undefined) return text;
        const item = source.item === undefined ? "" : ` ${source.list?.join(".")}[${source.item}]`;
        return `record ${source.line + 1}${item}`;
      });
    return {
      conversations: inner.conversations.map((conversation) => ({
        ...conversation,
        placeOf: (path) => place(conversation.placeOf?.(path) ?? "messages"),
      })),
      issues: inner.issues,
      write(replacements): FormatWriteResult {
        const written = inner.write(replacements);
        if (!written.ok) return written;
        if (written.value === session) return { ok: true, value };
        const now = (written.value as { messages: unknown[] }).messages;
        const out = lines.slice();
        let next = 0;
        for (const [index, record] of records.entries()) {
          const candidate = now[next];
          const source = order[index] as Source;
          if (!isPlainObject(candidate) || !isMessage(record) || candidate.id !== record.id)
            return {
              ok: false,
              reason: `record ${source.line + 1}: a message of a JSONL session is not removed (a later line may name its id)`,
            };
          next++;
          if (candidate !== record) out[source.line] = replaced(out[source.line] as Item, source, candidate);
        }
        return { ok: true, value: out };
      },
    };
  },
};
