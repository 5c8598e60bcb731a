import type { ChatMessage, ToolCall } from "@toolcall/core";
import {
  type AccumulatingToolCall,
  type ConversationFormat,
  type FormatConversation,
  type FormatReading,
  finishReasonAtStreamEnd,
  isPlainObject,
  ToolCallAccumulator,
  type ToolCallDelta,
} from "@toolcall/core/kit";

/** Where one streamed fragment of a call is: the line, its choice and its delta in `tool_calls`. */
interface Fragment {
  line: number;
  choice: number;
  delta: number;
}

interface StreamedChoice {
  index: number;
  content: string;
  hasContent: boolean;
  finishReason: string | null | undefined;
  accumulator: ToolCallAccumulator;
  fragments: Map<AccumulatingToolCall, Fragment[]>;
  firstLine: number;
}

function isChunk(value: unknown): value is Record<string, unknown> & { choices: unknown[] } {
  if (!isPlainObject(value) || !Array.isArray(value.choices)) return false;
  if (value.object === "chat.completion.chunk") return true;
  return value.choices.some((c) => isPlainObject(c) && isPlainObject(c.delta));
}

function describeStream(id: string | undefined, choice: number): string {
  return `${id === undefined ? "a stream" : `stream ${id}`}, choice ${choice}`;
}

/** Sets `target[key]` as an own data property of a copy-on-write clone (keys from the wire are data). */
function cloneWith<T extends object>(target: T, key: string, value: unknown): T {
  const copy = Array.isArray(target) ? ([...target] as unknown as T) : ({ ...target } as T);
  Object.defineProperty(copy, key, { value, writable: true, enumerable: true, configurable: true });
  return copy;
}

/** The chunk with `choices[choice].delta.tool_calls[delta]` changed by `edit`, every other part shared. */
function editDelta(
  chunk: Record<string, unknown>,
  choice: number,
  delta: number,
  edit: (call: Record<string, unknown>) => Record<string, unknown>,
): Record<string, unknown> {
  const choices = chunk.choices as Record<string, unknown>[];
  const theChoice = choices[choice] as Record<string, unknown>;
  const theDelta = theChoice.delta as Record<string, unknown>;
  const calls = theDelta.tool_calls as Record<string, unknown>[];
  const newCalls = cloneWith(calls, String(delta), edit(calls[delta] as Record<string, unknown>));
  const newDelta = cloneWith(theDelta, "tool_calls", newCalls);
  const newChoice = cloneWith(theChoice, "delta", newDelta);
  return cloneWith(chunk, "choices", cloneWith(choices, String(choice), newChoice));
}

/**
 * Logs of streamed Chat Completions (`chat.completion.chunk` objects, one per JSON line or server-sent `data:`
 * line; several streams may follow one another, told apart by `id`). Each choice of each stream is accumulated as
 * core accumulates streams (R9) into one answer: content and calls, with the stream's finish reason (a stream that
 * ends without one was cut: its broken calls are truncated). Writing back a changed call puts its whole new
 * arguments in the call's first fragment and empties the later ones; every other chunk is left as it was.
 *
 * @example
 * const reading = openaiChatChunksFormat.read(chunks);
 * reading.conversations[0].messages[0].tool_calls; // the calls as the stream assembled them
 */
export const openaiChatChunksFormat: ConversationFormat = {
  id: "openai-chat-chunks",
  name: "OpenAI streamed chat.completion.chunk logs",
  expected:
    'JSON lines (or SSE "data:" lines) of {"object": "chat.completion.chunk", "choices": [{"delta": …}]}',
  unit: "session",
  priority: 10,
  matches(value) {
    if (!Array.isArray(value) || value.length === 0) return false;
    const sample = value.slice(0, 8);
    return sample.filter(isChunk).length * 2 > sample.length;
  },
  read(value): FormatReading {
    const lines = Array.isArray(value) ? value : [];
    const streams = new Map<string, Map<number, StreamedChoice>>();
    const issues: FormatReading["issues"] = [];
    lines.forEach((chunk, line) => {
      if (!isChunk(chunk)) {
        issues.push({
          code: "chunk_invalid",
          severity: "warning",
          message: "not a chat.completion.chunk (left as it is)",
          path: [line],
          place: `record ${line + 1}`,
        });
        return;
      }
      const id = typeof chunk.id === "string" ? chunk.id : "";
      let choices = streams.get(id);
      if (choices === undefined) {
        choices = new Map();
        streams.set(id, choices);
      }
      chunk.choices.forEach((rawChoice, choiceIndex) => {
        if (!isPlainObject(rawChoice)) return;
        const index = typeof rawChoice.index === "number" ? rawChoice.index : choiceIndex;
        let streamed = choices.get(index);
        if (streamed === undefined) {
          streamed = {
            index,
            content: "",
            hasContent: false,
            finishReason: undefined,
            accumulator: new ToolCallAccumulator(),
            fragments: new Map(),
            firstLine: line,
          };
          choices.set(index, streamed);
        }
        if (typeof rawChoice.finish_reason === "string") streamed.finishReason = rawChoice.finish_reason;
        const delta = rawChoice.delta;
        if (!isPlainObject(delta)) return;
        if (typeof delta.content === "string") {
          streamed.content += delta.content;
          streamed.hasContent = true;
        }
        if (!Array.isArray(delta.tool_calls)) return;
        delta.tool_calls.forEach((callDelta, deltaIndex) => {
          if (!isPlainObject(callDelta)) return;
          const [call] = streamed.accumulator.push(callDelta as ToolCallDelta);
          if (call === undefined) return;
          const list = streamed.fragments.get(call) ?? [];
          list.push({ line, choice: choiceIndex, delta: deltaIndex });
          streamed.fragments.set(call, list);
        });
      });
    });

    const conversations: FormatConversation[] = [];
    const owners: StreamedChoice[] = [];
    for (const [id, choices] of streams) {
      for (const streamed of choices.values()) {
        const calls: ToolCall[] = streamed.accumulator.calls.map((call) => ({
          ...(call.id === undefined ? {} : { id: call.id }),
          type: call.type ?? "function",
          function: { name: call.name, arguments: call.arguments },
        }));
        const message: ChatMessage = {
          role: "assistant",
          content: streamed.hasContent ? streamed.content : null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        };
        const label = describeStream(id === "" ? undefined : id, streamed.index);
        owners.push(streamed);
        conversations.push({
          messages: [message],
          answer: true,
          finishReason: finishReasonAtStreamEnd(streamed.finishReason),
          label,
          placeOf: (path) =>
            path[1] === "tool_calls" && typeof path[2] === "number"
              ? `${label}, call ${path[2]} (from record ${streamed.firstLine + 1})`
              : `${label} (from record ${streamed.firstLine + 1})`,
        });
      }
    }

    return {
      conversations,
      issues,
      write(replacements) {
        if (replacements.every((messages) => messages === undefined)) return { ok: true, value };
        const out: unknown[] = [...lines];
        for (const [i, messages] of replacements.entries()) {
          if (messages === undefined) continue;
          const streamed = owners[i] as StreamedChoice;
          const message = messages[0];
          if (messages.length !== 1 || !isPlainObject(message)) {
            return { ok: false, reason: `${conversations[i]?.label} would not stay one answer` };
          }
          const newCalls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
          const oldCalls = streamed.accumulator.calls;
          if (newCalls.length !== oldCalls.length) {
            return {
              ok: false,
              reason: `${conversations[i]?.label}: a stream log cannot drop or add a call (only change one)`,
            };
          }
          for (const [n, call] of oldCalls.entries()) {
            const next = newCalls[n] as ToolCall;
            const fn = isPlainObject(next?.function) ? next.function : {};
            const fragments = streamed.fragments.get(call) ?? [];
            const first = fragments[0];
            if (first === undefined) continue;
            const newArguments = typeof fn.arguments === "string" ? fn.arguments : call.arguments;
            const newId = typeof next.id === "string" ? next.id : call.id;
            if (newArguments !== call.arguments) {
              fragments.forEach((fragment, k) => {
                out[fragment.line] = editDelta(
                  out[fragment.line] as Record<string, unknown>,
                  fragment.choice,
                  fragment.delta,
                  (delta) =>
                    cloneWith(
                      delta,
                      "function",
                      cloneWith(
                        isPlainObject(delta.function) ? delta.function : {},
                        "arguments",
                        k === 0 ? newArguments : "",
                      ),
                    ),
                );
              });
            }
            if (newId !== call.id && newId !== undefined) {
              out[first.line] = editDelta(
                out[first.line] as Record<string, unknown>,
                first.choice,
                first.delta,
                (delta) => cloneWith(delta, "id", newId),
              );
            }
          }
        }
        return { ok: true, value: out.every((line, i) => line === lines[i]) ? value : out };
      },
    };
  },
};
