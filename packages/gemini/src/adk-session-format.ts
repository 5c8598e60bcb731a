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

/** Where a call or result was read from: part `part` of event `event`. */
interface Origin {
  event: number;
  part: number;
}

/** A part's value under its Python name (`function_call`, as ADK dumps sessions) or its API name (`functionCall`). */
function partValue(part: unknown, snake: string, camel: string): { key: string; value: Item } | undefined {
  if (!isPlainObject(part)) return undefined;
  if (isPlainObject(part[snake])) return { key: snake, value: part[snake] as Item };
  if (isPlainObject(part[camel])) return { key: camel, value: part[camel] as Item };
  return undefined;
}

const callOf = (part: unknown) => partValue(part, "function_call", "functionCall");
const responseOf = (part: unknown) => partValue(part, "function_response", "functionResponse");

function partsOf(event: unknown): unknown[] {
  const content = isPlainObject(event) ? event.content : undefined;
  return isPlainObject(content) && Array.isArray(content.parts) ? content.parts : [];
}

function isSession(value: unknown): value is Item & { events: unknown[] } {
  return (
    isPlainObject(value) &&
    typeof value.id === "string" &&
    Array.isArray(value.events) &&
    value.events.every((event) => isPlainObject(event) && typeof event.author === "string") &&
    ("app_name" in value ||
      "appName" in value ||
      "invocation_id" in (value.events[0] ?? {}) ||
      "context" in value)
  );
}

function jsonText(value: unknown): unknown {
  const written = serializeJson(value);
  return written.success ? written.value : value;
}

/**
 * Google ADK sessions (a `Session` dumped as JSON: `{id, app_name, user_id, state, events}`, as ADK's tests and
 * `adk web` keep them): each event's `content` is a Gemini content (`role`, `parts`) under its `author`. Parts are
 * read under their Python names (`function_call`, `function_response`) or the API's (`functionCall`); a call without
 * an `id` (older sessions) is named by its place (`call@3.0`) and answered by the next response of the same name.
 * Writing back puts repaired arguments in `args` as an object, in the key the session used; a change ADK cannot
 * hold here (a call dropped, a result added) keeps the session as it was and says why.
 *
 * @example
 * const reading = adkSessionFormat.read(session);
 * reading.conversations[0].messages; // the events' texts, calls and responses
 */
export const adkSessionFormat: ConversationFormat = {
  id: "adk-session",
  name: "Google ADK session (events with Gemini contents)",
  expected: '{"id", "app_name"?, "events": [{"author", "content": {"role", "parts"}}]}',
  unit: "record",
  priority: 20,
  matches: isSession,
  resembles: (value) => isPlainObject(value) && Array.isArray(value.events) && "id" in value,
  read(value): FormatReading {
    const events = isSession(value) ? value.events : [];
    const messages: ChatMessage[] = [];
    const open: Array<{ id: string; name: unknown }> = [];
    events.forEach((event, index) => {
      const parts = partsOf(event);
      const content = (event as Item).content as Item | undefined;
      const text = parts
        .map((part) => (isPlainObject(part) && typeof part.text === "string" ? part.text : ""))
        .join("");
      const calls: ToolCall[] = [];
      parts.forEach((part, at) => {
        const call = callOf(part)?.value;
        if (call === undefined) return;
        const id = typeof call.id === "string" ? call.id : `call@${index}.${at}`;
        open.push({ id, name: call.name });
        calls.push(
          withOrigin(
            {
              id,
              type: "function",
              function: {
                name: call.name,
                arguments: typeof call.args === "string" ? call.args : jsonText(call.args ?? {}),
              },
            },
            { event: index, part: at } satisfies Origin,
          ) as ToolCall,
        );
      });
      if (content?.role === "model") {
        if (calls.length > 0 || text !== "")
          messages.push({
            role: "assistant",
            content: text === "" ? null : text,
            ...(calls.length > 0 ? { tool_calls: calls } : {}),
          });
        return;
      }
      parts.forEach((part, at) => {
        const response = responseOf(part)?.value;
        if (response === undefined) return;
        const byId = typeof response.id === "string" ? open.findIndex((c) => c.id === response.id) : -1;
        const at2 = byId >= 0 ? byId : open.findIndex((c) => c.name === response.name);
        const id =
          at2 >= 0 ? (open.splice(at2, 1)[0]?.id as string) : (response.id ?? `result@${index}.${at}`);
        messages.push(
          withOrigin({ role: "tool", tool_call_id: id, content: jsonText(response.response) }, {
            event: index,
            part: at,
          } satisfies Origin) as ChatMessage,
        );
      });
      if (text !== "") messages.push({ role: "user", content: text });
    });
    const before = new Map<unknown, ToolCall>();
    for (const message of messages)
      for (const call of (message.tool_calls as ToolCall[] | undefined) ?? [])
        before.set(originOf(call), call);
    return {
      conversations: [
        {
          messages,
          placeOf(path) {
            const message = typeof path[0] === "number" ? messages[path[0]] : undefined;
            const target =
              path[1] === "tool_calls" && typeof path[2] === "number"
                ? (message?.tool_calls as unknown[] | undefined)?.[path[2]]
                : ((message?.tool_calls as unknown[] | undefined)?.[0] ?? message);
            const origin = originOf(target) as Origin | undefined;
            return origin === undefined ? "events" : `events[${origin.event}].content.parts[${origin.part}]`;
          },
        },
      ],
      issues: [],
      write([next]) {
        if (next === undefined || !isSession(value)) return { ok: true, value };
        const calls = next.flatMap((message) =>
          isPlainObject(message) && Array.isArray(message.tool_calls) ? message.tool_calls : [],
        );
        const results = next.filter((message) => isPlainObject(message) && message.role === "tool");
        const readResults = messages.filter((message) => message.role === "tool");
        if (
          next.length !== messages.length ||
          calls.length !== before.size ||
          results.some((result, i) => result !== readResults[i])
        )
          return {
            ok: false,
            reason: "an ADK session is written back only with its events as they were (arguments aside)",
          };
        let out = events;
        for (const call of calls) {
          const origin = originOf(call) as Origin | undefined;
          const was = origin === undefined ? undefined : before.get(origin);
          if (origin === undefined || was === undefined || !isPlainObject(call))
            return { ok: false, reason: "a new call has no ADK event form" };
          const fn = isPlainObject(call.function) ? call.function : {};
          const oldFn = was.function as Item;
          if (fn.arguments === oldFn.arguments && fn.name === oldFn.name && call.id === was.id) continue;
          if (fn.name !== oldFn.name || call.id !== was.id)
            return { ok: false, reason: `events[${origin.event}]: a call's name or id is not rewritten` };
          const parsed =
            typeof fn.arguments === "string" ? parseJson(fn.arguments, { lossless: true }) : undefined;
          if (parsed === undefined || !parsed.success || !isPlainObject(parsed.value))
            return { ok: false, reason: "ADK keeps args as an object; these are not one" };
          const event = out[origin.event] as Item;
          const content = event.content as Item;
          const parts = content.parts as unknown[];
          const part = parts[origin.part] as Item;
          const found = callOf(part) as { key: string; value: Item };
          const newParts = [...parts];
          newParts[origin.part] = withKey(part, found.key, withKey(found.value, "args", parsed.value));
          if (out === events) out = [...events];
          out[origin.event] = withKey(event, "content", withKey(content, "parts", newParts));
        }
        return { ok: true, value: out === events ? value : withKey(value, "events", out) };
      },
    };
  },
};
