import type { ChatMessage, ToolCall } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatConversation,
  type FormatIssue,
  type FormatReading,
  isPlainObject,
  serializeJson,
} from "@toolcall/core/kit";
import { syntaxById } from "@toolcall/model-formats";
import { type AnswerPlace, type ReadAnswer, writeBfclAnswer } from "./bfcl-answer-write.js";

type Answer = Record<string, unknown> & { ground_truth: unknown[] };

function isAnswer(value: unknown): value is Answer {
  if (!isPlainObject(value) || typeof value.id !== "string" || !Array.isArray(value.ground_truth))
    return false;
  if ("question" in value) return false;
  return value.ground_truth.every(
    (item) =>
      (isPlainObject(item) && Object.keys(item).length === 1) ||
      (Array.isArray(item) && item.every((call) => typeof call === "string")),
  );
}

/**
 * The first call BFCL accepts for `{param: [acceptable values]}`: each parameter's first value, a parameter left
 * out when `""` is among its values (BFCL's mark for "may be omitted").
 */
function firstAcceptable(parameters: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(parameters)) {
    const list = Array.isArray(values) ? values : [values];
    if (list.length === 0 || list.includes("")) continue;
    Object.defineProperty(out, name, {
      value: list[0],
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * BFCL (Berkeley Function-Calling Leaderboard) possible-answer files: one JSON line per entry, `{id, ground_truth}`.
 * A single-turn entry lists the expected calls as `{name: {param: [acceptable values]}}`, read as one answer whose
 * calls carry the first acceptable value of each parameter (a parameter whose values include `""` may be omitted,
 * and is). A multi-turn entry lists one list of Python call texts per turn (`cd(folder='document')`), each read by
 * `@toolcall/model-formats`' pythonic syntax, one answer per turn; a text it does not read (positional arguments,
 * a dotted name) is named (`call_unread`, info) and left out of the view. The calls are expected ones, so no
 * result is expected for them (`expectsResults: false`). A repair is written back in the entry's own shapes (a
 * dropped call leaves its list; changed arguments become the first acceptable values, or the call's pythonic text);
 * what no rule touched stays the same object.
 *
 * @example
 * const reading = bfclAnswerFormat.read({ id: "simple_0", ground_truth: [{ area: { base: [10], unit: ["", "cm"] } }] });
 * reading.conversations[0].messages[0].tool_calls; // [{ function: { name: "area", arguments: '{"base":10}' }, … }]
 */
export const bfclAnswerFormat: ConversationFormat = {
  id: "bfcl-answer",
  name: "BFCL possible answer (ground_truth)",
  expected: '{"id", "ground_truth": [{"name": {"param": [values]}}] | [["call(text)"]]}',
  unit: "record",
  priority: 20,
  matches: isAnswer,
  resembles: (value) => isPlainObject(value) && "ground_truth" in value,
  read(value): FormatReading {
    const items = isAnswer(value) ? value.ground_truth : [];
    const issues: FormatIssue[] = [];
    const conversations: FormatConversation[] = [];
    const read: ReadAnswer[] = [];
    const answer = (options: {
      calls: ToolCall[];
      items: number[];
      turn?: number;
      label?: string;
      place?: (call: number) => string;
    }) => {
      const { calls, label, place } = options;
      const message: ChatMessage = { role: "assistant", content: null, tool_calls: calls };
      const places = new Map<string, AnswerPlace>();
      calls.forEach((call, k) => {
        places.set(String(call.id), {
          item: options.items[k] as number,
          name: String(call.function?.name),
          arguments: String(call.function?.arguments),
        });
      });
      read.push({
        messages: [message],
        places,
        ...(options.turn !== undefined ? { turn: options.turn } : {}),
      });
      conversations.push({
        messages: [message],
        answer: true,
        expectsResults: false,
        ...(label !== undefined ? { label } : {}),
        placeOf: (path) =>
          path[1] === "tool_calls" && typeof path[2] === "number" && place !== undefined
            ? place(path[2])
            : (label ?? "ground_truth"),
      });
    };
    if (items.every(isPlainObject)) {
      const calls = items.map((item, index): ToolCall => {
        const [name, parameters] = Object.entries(item as Record<string, unknown>)[0] as [string, unknown];
        const written = serializeJson(isPlainObject(parameters) ? firstAcceptable(parameters) : parameters);
        return {
          id: `answer@${index}`,
          type: "function",
          function: { name, arguments: written.success ? written.value : "" },
        };
      });
      if (calls.length > 0)
        answer({ calls, items: calls.map((_, k) => k), place: (call) => `ground_truth[${call}]` });
    } else {
      const pythonic = syntaxById("llama-pythonic");
      items.forEach((turn, t) => {
        if (!Array.isArray(turn)) return;
        const calls: ToolCall[] = [];
        const places: string[] = [];
        const items: number[] = [];
        turn.forEach((text, k) => {
          const parsed = pythonic?.parse(`[${String(text)}]`, { createId: () => `answer@${t}.${k}` });
          const call = parsed?.toolCalls.length === 1 ? parsed.toolCalls[0] : undefined;
          if (call === undefined) {
            issues.push({
              code: "call_unread",
              severity: "info",
              message: `the pythonic syntax does not read ${JSON.stringify(text)} (positional arguments or a dotted name); it is kept as it is`,
              path: ["ground_truth", t, k],
              place: `ground_truth[${t}][${k}]`,
            });
            return;
          }
          calls.push(call as ToolCall);
          items.push(k);
          places.push(`ground_truth[${t}][${k}]`);
        });
        if (calls.length > 0)
          answer({
            calls,
            items,
            turn: t,
            label: `ground_truth[${t}]`,
            place: (call) => places[call] ?? `ground_truth[${t}]`,
          });
      });
    }
    return {
      conversations,
      issues,
      write(replacements) {
        if (!isAnswer(value)) return { ok: true, value };
        return writeBfclAnswer({ value, read, replacements });
      },
    };
  },
};
