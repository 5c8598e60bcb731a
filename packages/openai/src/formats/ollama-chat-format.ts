import { type ChatMessage, parseJson, type ToolCall, type ToolDefinition } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatReading,
  isPlainObject,
  originOf,
  placeOfPath,
  serializeJson,
  storedListOf,
  withOrigin,
  withStoredList,
} from "@toolcall/core/kit";

type Item = Record<string, unknown>;

/** What a neutral message or call was read from. */
type Origin =
  | { kind: "message"; index: number }
  | { kind: "call"; index: number; call: number; text: string };

/** An assistant message holding a call whose arguments are a mapping, as Ollama's `/api/chat` stores them. */
function hasObjectArguments(message: unknown): boolean {
  if (!isPlainObject(message) || !Array.isArray(message.tool_calls)) return false;
  return message.tool_calls.some(
    (call) => isPlainObject(call) && isPlainObject(call.function) && isPlainObject(call.function.arguments),
  );
}

/** The messages of a value Ollama's native chat holds: a request body or a bare list, each message as it is. */
const messagesOf = (value: unknown) => storedListOf({ value, isMessage: () => true, allowEmpty: true });

/**
 * Ollama's native chat (`POST /api/chat`): `{model, messages, tools?, …}` or a bare list of messages, where a call's
 * `arguments` is an object (not JSON text, as in OpenAI Chat) and a tool result names its call by `tool_name` (or
 * `tool_call_id`, where the history has one). Read into core's neutral view with arguments as their JSON text and
 * each result paired with the next unanswered call of its turn (by name when it has one); written back with arguments
 * as objects again, every message the rules left alone the same object (so a history stays one Ollama accepts).
 * Claimed only when some call's arguments are an object; a history with none reads the same as OpenAI Chat.
 *
 * @example
 * const reading = ollamaChatFormat.read({ model: "qwen3", messages });
 * reading.conversations[0].messages[1].tool_calls[0].function.arguments; // '{"city":"Paris"}'
 */
export const ollamaChatFormat: ConversationFormat = {
  id: "ollama-chat",
  name: "Ollama native chat (/api/chat)",
  expected:
    '{"model", "messages": [{role, content, tool_calls: [{function: {name, arguments: {…}}}]}]} (arguments as objects)',
  unit: "record",
  priority: 5,
  matches(value) {
    const found = messagesOf(value);
    return found?.list.some(hasObjectArguments) === true;
  },
  read(value): FormatReading {
    const found = messagesOf(value) ?? { list: [] };
    const messages: ChatMessage[] = [];
    let pending: Array<{ id: string; name: unknown }> = [];
    found.list.forEach((raw, index) => {
      if (!isPlainObject(raw)) {
        messages.push(
          withOrigin({ content: raw } as ChatMessage, { kind: "message", index } satisfies Origin),
        );
        return;
      }
      if (raw.role === "tool") {
        const named = typeof raw.tool_call_id === "string" ? raw.tool_call_id : undefined;
        const at =
          named === undefined
            ? pending.findIndex((call) => raw.tool_name !== undefined && call.name === raw.tool_name)
            : -1;
        const taken = named === undefined ? pending.splice(Math.max(at, 0), 1)[0] : undefined;
        // A result that names its call by id answers that call: a later result named only by the tool's name
        // answers the next call of that name, not this one again.
        if (named !== undefined) pending = pending.filter((call) => call.id !== named);
        const { tool_name: _name, ...rest } = raw;
        messages.push(
          withOrigin({ ...rest, tool_call_id: named ?? taken?.id ?? `result@${index}` } as ChatMessage, {
            kind: "message",
            index,
          } satisfies Origin),
        );
        return;
      }
      if (raw.role === "assistant") pending = [];
      if (!Array.isArray(raw.tool_calls)) {
        messages.push(withOrigin({ ...raw } as ChatMessage, { kind: "message", index } satisfies Origin));
        return;
      }
      const calls = raw.tool_calls.map((call, j): ToolCall => {
        const fn = isPlainObject(call) && isPlainObject(call.function) ? call.function : {};
        const id =
          isPlainObject(call) && typeof call.id === "string"
            ? call.id
            : `call@${index}${j === 0 ? "" : `.${j}`}`;
        const written = isPlainObject(fn.arguments) ? serializeJson(fn.arguments) : undefined;
        const text = written?.success ? written.value : fn.arguments;
        pending.push({ id, name: fn.name });
        return withOrigin(
          { id, type: "function", function: { name: fn.name, arguments: text } } as ToolCall,
          {
            kind: "call",
            index,
            call: j,
            text: typeof text === "string" ? text : "",
          } satisfies Origin,
        );
      });
      messages.push(
        withOrigin({ ...raw, tool_calls: calls } as ChatMessage, { kind: "message", index } satisfies Origin),
      );
    });
    const before = new Map<unknown, ChatMessage>();
    for (const message of messages) before.set(originOf(message), message);
    const tools =
      isPlainObject(value) && Array.isArray(value.tools) ? (value.tools as ToolDefinition[]) : undefined;
    return {
      conversations: [
        {
          messages,
          ...(tools ? { tools } : {}),
          placeOf: (path) => placeOfPath({ prefix: found.key ?? "", path }),
        },
      ],
      issues: [],
      write([next]) {
        if (next === undefined) return { ok: true, value };
        const out: unknown[] = [];
        let lastCalls: Array<{ id: string; name: unknown }> = [];
        for (const message of next) {
          const origin = originOf(message) as Origin | undefined;
          if (!isPlainObject(message)) continue;
          if (origin === undefined) {
            if (message.role !== "tool")
              return { ok: false, reason: `a new ${String(message.role)} message has no Ollama form` };
            const call = lastCalls.find((entry) => entry.id === message.tool_call_id);
            out.push({
              role: "tool",
              content: message.content,
              ...(call?.name !== undefined ? { tool_name: call.name } : {}),
            });
            continue;
          }
          const raw = found.list[origin.index];
          const old = before.get(origin);
          if (message === old || (old !== undefined && sameMessage(message, old))) {
            out.push(raw);
            if (message.role === "assistant") lastCalls = callsOf(message);
            continue;
          }
          const rewritten = rewriteMessage(raw as Item, message);
          if (!rewritten.ok) return rewritten;
          out.push(rewritten.value);
          if (message.role === "assistant") lastCalls = callsOf(message);
        }
        return { ok: true, value: withStoredList({ value, found, list: out }) };
      },
    };
  },
};

function callsOf(message: Item): Array<{ id: string; name: unknown }> {
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  return calls.map((call) => ({
    id: isPlainObject(call) ? String(call.id) : "",
    name: isPlainObject(call) && isPlainObject(call.function) ? call.function.name : undefined,
  }));
}

/** Sanitize copies a message it leaves as it was: the same keys holding the same values (calls compared by origin). */
function sameMessage(now: Item, old: Item): boolean {
  const keys = Object.keys(now);
  if (keys.length !== Object.keys(old).length) return false;
  return keys.every((key) => {
    if (key !== "tool_calls") return now[key] === old[key];
    const a = now.tool_calls as unknown[];
    const b = old.tool_calls as unknown[];
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((call, i) => call === b[i])
    );
  });
}

/** A message the rules changed, in Ollama's shape: calls with object arguments, results with their `tool_name`. */
function rewriteMessage(raw: Item, message: Item): { ok: true; value: Item } | { ok: false; reason: string } {
  const out: Item = {};
  const define = (key: string, value: unknown) =>
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  for (const key of Object.keys(message)) {
    if (key === "tool_call_id" && !("tool_call_id" in raw)) continue;
    if (key !== "tool_calls") {
      define(key, message[key]);
      continue;
    }
    const calls: unknown[] = [];
    for (const call of message.tool_calls as ToolCall[]) {
      const origin = originOf(call) as (Origin & { kind: "call" }) | undefined;
      const rawCall = origin === undefined ? undefined : ((raw.tool_calls as unknown[])[origin.call] as Item);
      const fn = isPlainObject(call.function) ? call.function : {};
      // An id a rule renamed (a duplicate) is written; a call stored without one stays without one.
      const idChanged = rawCall !== undefined && "id" in rawCall && rawCall.id !== call.id;
      const rawArguments = isPlainObject(rawCall?.function) ? rawCall.function.arguments : undefined;
      const unchanged =
        origin?.text === fn.arguments || (typeof rawArguments === "string" && rawArguments === fn.arguments);
      if (rawCall !== undefined && unchanged) {
        calls.push(idChanged ? { ...rawCall, id: call.id } : rawCall);
        continue;
      }
      const parsed =
        typeof fn.arguments === "string" ? parseJson(fn.arguments, { lossless: true }) : undefined;
      if (parsed === undefined || !parsed.success || !isPlainObject(parsed.value))
        return { ok: false, reason: "Ollama takes arguments as an object; these are not one" };
      const rawFn =
        rawCall !== undefined && isPlainObject(rawCall.function) ? rawCall.function : { name: fn.name };
      calls.push({
        ...(rawCall ?? {}),
        ...(idChanged ? { id: call.id } : {}),
        function: { ...rawFn, name: fn.name, arguments: parsed.value },
      });
    }
    define("tool_calls", calls);
  }
  if ("tool_name" in raw && !("tool_name" in out)) define("tool_name", raw.tool_name);
  return { ok: true, value: out };
}
