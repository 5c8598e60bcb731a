import { type ChatMessage, parseJson, type ToolCall } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatReading,
  isPlainObject,
  originOf,
  serializeJson,
  withOrigin,
} from "@toolcall/core/kit";
import { withKey } from "./with-key.js";

type Item = Record<string, unknown>;

/** What a neutral message or call was read from: a message record, or call `call` of its `toolCalls`. */
type Origin =
  | { kind: "message"; message: number }
  | { kind: "call"; message: number; call: number }
  | { kind: "result"; message: number; call: number };

function isRecord(value: unknown): value is Item & { messages: unknown[] } {
  return (
    isPlainObject(value) &&
    typeof value.sessionId === "string" &&
    Array.isArray(value.messages) &&
    value.messages.every(
      (message) => isPlainObject(message) && typeof message.type === "string" && !("role" in message),
    )
  );
}

/** The text of a `PartListUnion` (a string, a part, or a list of parts); `null` when it holds none. */
function textOf(content: unknown): string | null {
  if (typeof content === "string") return content;
  const parts = Array.isArray(content) ? content : [content];
  const texts = parts.flatMap((part) =>
    typeof part === "string"
      ? [part]
      : isPlainObject(part) && typeof part.text === "string"
        ? [part.text]
        : [],
  );
  return texts.length > 0 ? texts.join("") : null;
}

/** A call's result as text: each `functionResponse`'s `response` as JSON, other parts' text. */
function resultText(result: unknown): string {
  const parts = Array.isArray(result) ? result : [result];
  return parts
    .map((part) => {
      if (isPlainObject(part) && isPlainObject(part.functionResponse)) {
        const written = serializeJson(part.functionResponse.response);
        return written.success ? written.value : "";
      }
      return textOf(part) ?? "";
    })
    .join("\n");
}

/**
 * Gemini CLI chat sessions (`~/.gemini/tmp/<project>/chats/session-*.json`, written by its chat recording): one JSON
 * document `{sessionId, projectHash, startTime, lastUpdated, messages}` whose messages are `user` and `gemini`
 * records (and `info`, `error`, `warning` notes, carried through unread). A `gemini` record's `toolCalls` hold each
 * call with its `args` (an object) and, once run, its `result` (`functionResponse` parts) and `status`. Read: calls
 * as the assistant's, each `result` as the call's tool message. Writing back puts repaired arguments in `args` as an
 * object, drops a dropped call from `toolCalls`, and gives a call left without a result an `error` result (as Gemini
 * CLI records a failed call); every record no rule changed is the same object.
 *
 * @example
 * const reading = geminiCliSessionFormat.read(session);
 * reading.conversations[0].messages; // user turns, the model's calls and their results
 */
export const geminiCliSessionFormat: ConversationFormat = {
  id: "gemini-cli-session",
  name: "Gemini CLI chat session (messages with toolCalls)",
  expected:
    '{"sessionId", "messages": [{"type": "user" | "gemini", "content", "toolCalls"?: [{"id", "name", "args", "result"?}]}]}',
  unit: "record",
  priority: 20,
  matches: isRecord,
  resembles: (value) => isPlainObject(value) && "sessionId" in value && "messages" in value,
  read(value): FormatReading {
    const records = isRecord(value) ? value.messages : [];
    const messages: ChatMessage[] = [];
    records.forEach((raw, index) => {
      const record = raw as Item;
      if (record.type === "user") {
        messages.push(
          withOrigin({ role: "user", content: textOf(record.content) ?? "" }, {
            kind: "message",
            message: index,
          } satisfies Origin),
        );
        return;
      }
      if (record.type !== "gemini") return;
      const toolCalls = Array.isArray(record.toolCalls) ? record.toolCalls : [];
      const calls = toolCalls.map((call, at) => {
        const item = isPlainObject(call) ? call : {};
        const args = serializeJson(item.args);
        return withOrigin(
          {
            id: item.id,
            type: "function",
            function: {
              name: item.name,
              // A string `args` is taken as the wire text it holds.
              arguments: typeof item.args === "string" ? item.args : args.success ? args.value : item.args,
            },
          },
          { kind: "call", message: index, call: at } satisfies Origin,
        ) as ToolCall;
      });
      messages.push(
        withOrigin(
          {
            role: "assistant",
            content: textOf(record.content) ?? (calls.length > 0 ? null : ""),
            ...(calls.length > 0 ? { tool_calls: calls } : {}),
          },
          { kind: "message", message: index } satisfies Origin,
        ),
      );
      toolCalls.forEach((call, at) => {
        if (!isPlainObject(call) || call.result === undefined || call.result === null) return;
        messages.push(
          withOrigin({ role: "tool", tool_call_id: call.id, content: resultText(call.result) }, {
            kind: "result",
            message: index,
            call: at,
          } satisfies Origin),
        );
      });
    });
    const before = new Map<unknown, unknown>();
    for (const message of messages) {
      before.set(originOf(message), message);
      for (const call of (message.tool_calls as ToolCall[] | undefined) ?? [])
        before.set(originOf(call), call);
    }
    return {
      conversations: [
        {
          messages,
          placeOf(path) {
            const message = typeof path[0] === "number" ? messages[path[0]] : undefined;
            const origin = originOf(message) as Origin | undefined;
            if (origin === undefined) return "messages";
            if (origin.kind === "result")
              return `messages[${origin.message}].toolCalls[${origin.call}].result`;
            if (path[1] === "tool_calls" && typeof path[2] === "number")
              return `messages[${origin.message}].toolCalls[${path[2]}]`;
            return `messages[${origin.message}]`;
          },
        },
      ],
      issues: [],
      write([next]) {
        if (next === undefined || !isRecord(value)) return { ok: true, value };
        return writeSession({ value, records, next, before });
      },
    };
  },
};

/** The session with the neutral view's changes put back into its records. */
function writeSession(options: {
  value: Item;
  records: readonly unknown[];
  next: readonly unknown[];
  before: ReadonlyMap<unknown, unknown>;
}): { ok: true; value: unknown } | { ok: false; reason: string } {
  const { value, records, next, before } = options;
  // Per record: the calls kept (by index, with their new form) and the results seen.
  const keptRecords = new Set<number>();
  const calls = new Map<number, Map<number, Item>>();
  const results = new Map<number, Set<number>>();
  const synthesized = new Map<string, string>();
  for (const message of next) {
    if (!isPlainObject(message)) continue;
    const origin = originOf(message) as Origin | undefined;
    if (origin === undefined) {
      if (message.role === "tool" && typeof message.tool_call_id === "string") {
        synthesized.set(message.tool_call_id, String(message.content));
        continue;
      }
      return { ok: false, reason: `a new ${String(message.role)} message has no Gemini CLI record form` };
    }
    const old = before.get(origin) as Item | undefined;
    if (origin.kind === "result") {
      (results.get(origin.message) ?? results.set(origin.message, new Set()).get(origin.message))?.add(
        origin.call,
      );
      if (message.content !== old?.content)
        return { ok: false, reason: `messages[${origin.message}]: a recorded result is not rewritten` };
      continue;
    }
    keptRecords.add(origin.message);
    if (message.content !== old?.content)
      return { ok: false, reason: `messages[${origin.message}]: the text of a message is not rewritten` };
    const record = records[origin.message] as Item;
    const recorded = Array.isArray(record.toolCalls) ? record.toolCalls : [];
    const kept = new Map<number, Item>();
    for (const call of (message.tool_calls as unknown[] | undefined) ?? []) {
      const callOrigin = originOf(call) as (Origin & { kind: "call" }) | undefined;
      if (callOrigin === undefined || !isPlainObject(call))
        return { ok: false, reason: `messages[${origin.message}]: a new call has no Gemini CLI record form` };
      const raw = recorded[callOrigin.call] as Item;
      const was = before.get(callOrigin) as ToolCall;
      const fn = isPlainObject(call.function) ? call.function : {};
      const oldFn = isPlainObject(was.function) ? was.function : {};
      if (call.id !== was.id || fn.name !== oldFn.name)
        return { ok: false, reason: `messages[${origin.message}]: a call's id or name is not rewritten` };
      if (fn.arguments === oldFn.arguments) {
        kept.set(callOrigin.call, raw);
        continue;
      }
      const parsed =
        typeof fn.arguments === "string" ? parseJson(fn.arguments, { lossless: true }) : undefined;
      if (parsed === undefined || !parsed.success || !isPlainObject(parsed.value))
        return { ok: false, reason: "Gemini CLI keeps args as an object; these are not one" };
      kept.set(callOrigin.call, withKey(raw, "args", parsed.value));
    }
    calls.set(origin.message, kept);
  }
  let changed = false;
  let failure: string | undefined;
  const out: unknown[] = [];
  records.forEach((raw, index) => {
    const record = raw as Item;
    if (record.type !== "user" && record.type !== "gemini") {
      out.push(raw);
      return;
    }
    if (!keptRecords.has(index)) {
      changed = true;
      return;
    }
    const recorded = Array.isArray(record.toolCalls) ? record.toolCalls : [];
    const kept = calls.get(index) ?? new Map<number, Item>();
    let callsChanged = false;
    const toolCalls: unknown[] = [];
    recorded.forEach((call, at) => {
      let now = kept.get(at);
      if (now === undefined) {
        callsChanged = true;
        return;
      }
      if (now.result !== undefined && now.result !== null && !results.get(index)?.has(at))
        failure ??= `messages[${index}].toolCalls[${at}]: a recorded result is not dropped without its call`;
      const text = synthesized.get(String(now.id));
      if (text !== undefined && (now.result === undefined || now.result === null)) {
        now = withKey(withKey(now, "status", "error"), "result", [
          { functionResponse: { id: now.id, name: now.name, response: { error: text } } },
        ]);
      }
      if (now !== call) callsChanged = true;
      toolCalls.push(now);
    });
    if (!callsChanged) {
      out.push(raw);
      return;
    }
    changed = true;
    out.push(withKey(record, "toolCalls", toolCalls));
  });
  if (failure !== undefined) return { ok: false, reason: failure };
  if (!changed) return { ok: true, value };
  return { ok: true, value: withKey(value, "messages", out) };
}
