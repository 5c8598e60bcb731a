import { JsonNumber } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatConversation,
  type FormatReading,
  finishReasonAtStreamEnd,
  isPlainObject,
} from "@toolcall/core/kit";
import { type ItemsReading, readResponseItems } from "./responses-items.js";

type Event = Record<string, unknown> & { type: string };

/** One output item of a streamed response, and the lines that carry it. */
interface Slot {
  item: Record<string, unknown> | undefined;
  done?: number;
  argumentsDone?: number;
  deltas: number[];
  streamed: string;
}

interface StreamedResponse {
  id: string | undefined;
  firstLine: number;
  slots: Map<number, Slot>;
  end?: { line: number; status: string; reason?: unknown };
}

function isEvent(value: unknown): value is Event {
  return isPlainObject(value) && typeof value.type === "string" && value.type.startsWith("response.");
}

/** A copy with `key` set, every other key in its place (keys from the wire are data). */
function withKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const name of Object.keys(target))
    Object.defineProperty(copy, name, {
      value: name === key ? value : target[name],
      writable: true,
      enumerable: true,
      configurable: true,
    });
  return copy;
}

const END_TYPES = new Set(["response.completed", "response.incomplete", "response.failed"]);

function streamedResponses(lines: readonly unknown[]): StreamedResponse[] {
  const responses: StreamedResponse[] = [];
  let current: StreamedResponse | undefined;
  lines.forEach((event, line) => {
    if (!isEvent(event)) return;
    const response = isPlainObject(event.response) ? event.response : undefined;
    if (event.type === "response.created" || current === undefined || current.end !== undefined) {
      current = { id: response?.id as string | undefined, firstLine: line, slots: new Map() };
      responses.push(current);
    }
    // A log read losslessly holds its numbers as JsonNumber.
    const raw = event.output_index;
    const index = typeof raw === "number" ? raw : raw instanceof JsonNumber ? Number(raw) : undefined;
    const slot = (): Slot => {
      const key = index ?? -1;
      let found = current?.slots.get(key);
      if (found === undefined) {
        found = { item: undefined, deltas: [], streamed: "" };
        current?.slots.set(key, found);
      }
      return found;
    };
    if (event.type === "response.output_item.added" && isPlainObject(event.item)) {
      const found = slot();
      found.item ??= event.item;
    } else if (event.type === "response.output_item.done" && isPlainObject(event.item)) {
      const found = slot();
      found.item = event.item;
      found.done = line;
    } else if (event.type === "response.function_call_arguments.delta") {
      const found = slot();
      found.deltas.push(line);
      if (typeof event.delta === "string") found.streamed += event.delta;
    } else if (event.type === "response.function_call_arguments.done") {
      slot().argumentsDone = line;
    } else if (END_TYPES.has(event.type)) {
      current.end = {
        line,
        status: event.type.slice("response.".length),
        reason: isPlainObject(response?.incomplete_details) ? response.incomplete_details.reason : undefined,
      };
    }
  });
  return responses;
}

/** The items of a response as its stream delivered them: each finished item, or one cut short as it had come. */
function itemsOf(response: StreamedResponse): { items: unknown[]; slots: Slot[] } {
  const slots = [...response.slots.entries()]
    .filter(([index, slot]) => index >= 0 && slot.item !== undefined)
    .sort(([a], [b]) => a - b)
    .map(([, slot]) => slot);
  const items = slots.map((slot) => {
    const item = slot.item as Record<string, unknown>;
    if (slot.done !== undefined || item.type !== "function_call") return item;
    return withKey(item, "arguments", slot.streamed);
  });
  return { items, slots };
}

/**
 * Recorded Responses API streams (`response.*` events, one per JSON line or server-sent `data:` line; several
 * responses may follow one another, each from its `response.created`). Each response is read as the answer its
 * output items make (`response.output_item.done`; an item whose stream was cut is read as far as its deltas went),
 * with its end (`response.completed`; `response.incomplete` for `max_output_tokens` makes broken arguments
 * truncated; no end event means the stream was cut). Writing back a call's repaired arguments puts them in every
 * event that holds the call: its `output_item.done` item, its `function_call_arguments.done`, the first of its
 * deltas (the later ones emptied) and the `response.completed` output; every other event is left as it was.
 *
 * @example
 * const reading = openaiResponsesStreamFormat.read(events);
 * reading.conversations[0].messages[0].tool_calls; // the calls as the stream delivered them
 */
export const openaiResponsesStreamFormat: ConversationFormat = {
  id: "openai-responses-stream",
  name: "OpenAI Responses API stream events (response.*)",
  expected:
    'JSON lines (or SSE "data:" lines) of {"type": "response.created" | "response.output_item.done" | …}',
  unit: "session",
  priority: 10,
  matches(value) {
    if (!Array.isArray(value) || value.length === 0) return false;
    const sample = value.slice(0, 8);
    return sample.filter(isEvent).length * 2 > sample.length;
  },
  read(value): FormatReading {
    const lines = Array.isArray(value) ? value : [];
    const responses = streamedResponses(lines);
    const readings: Array<{
      reading: ItemsReading;
      items: unknown[];
      slots: Slot[];
      response: StreamedResponse;
    }> = [];
    const conversations: FormatConversation[] = [];
    for (const response of responses) {
      const { items, slots } = itemsOf(response);
      const reading = readResponseItems(items);
      readings.push({ reading, items, slots, response });
      const label =
        response.id === undefined
          ? `a response (from record ${response.firstLine + 1})`
          : `response ${response.id}`;
      const calls = reading.messages.some((message) => Array.isArray(message.tool_calls));
      const end = response.end;
      conversations.push({
        messages: reading.messages,
        answer: true,
        finishReason:
          end === undefined
            ? finishReasonAtStreamEnd(undefined)
            : end.status === "incomplete"
              ? end.reason === "max_output_tokens"
                ? "length"
                : "content_filter"
              : calls
                ? "tool_calls"
                : "stop",
        label,
        placeOf(path) {
          const item = reading.itemAt(path);
          const slot = item === undefined ? undefined : slots[item];
          const line = slot?.done ?? slot?.deltas[0] ?? response.firstLine;
          return `${label}, record ${line + 1}`;
        },
      });
    }
    return {
      conversations,
      issues: [],
      write(replacements) {
        const out: unknown[] = [...lines];
        for (const [i, messages] of replacements.entries()) {
          if (messages === undefined) continue;
          const { reading, items, slots, response } = readings[i] as (typeof readings)[number];
          const result = reading.edits(messages);
          if (!result.ok) return result;
          const { edits } = result;
          if (edits.dropped.size > 0 || edits.inserted.size > 0)
            return {
              ok: false,
              reason: `${conversations[i]?.label}: a stream log cannot drop or add an item`,
            };
          for (const [index, next] of edits.replaced) {
            const slot = slots[index] as Slot;
            const was = items[index] as Record<string, unknown>;
            const item = next as Record<string, unknown>;
            if (item.call_id !== was.call_id)
              return {
                ok: false,
                reason: `${conversations[i]?.label}: a streamed call's id is not rewritten`,
              };
            const text = item.arguments;
            const edit = (line: number | undefined, change: (event: Record<string, unknown>) => unknown) => {
              if (line !== undefined) out[line] = change(out[line] as Record<string, unknown>);
            };
            edit(slot.done, (event) =>
              withKey(event, "item", withKey(event.item as Record<string, unknown>, "arguments", text)),
            );
            edit(slot.argumentsDone, (event) => withKey(event, "arguments", text));
            slot.deltas.forEach((line, k) => {
              edit(line, (event) => withKey(event, "delta", k === 0 ? text : ""));
            });
            edit(response.end?.line, (event) => {
              const final = isPlainObject(event.response) ? event.response : undefined;
              const output = Array.isArray(final?.output) ? final.output : undefined;
              const at = output?.findIndex(
                (entry) => isPlainObject(entry) && entry.id === was.id && entry.id !== undefined,
              );
              if (final === undefined || output === undefined || at === undefined || at < 0) return event;
              const copy = [...output];
              copy[at] = withKey(output[at] as Record<string, unknown>, "arguments", text);
              return withKey(event, "response", withKey(final, "output", copy));
            });
          }
        }
        return { ok: true, value: out.every((line, i) => line === lines[i]) ? value : out };
      },
    };
  },
};
