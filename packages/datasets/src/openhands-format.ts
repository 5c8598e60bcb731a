import type { ChatMessage, ToolCall } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatIssue,
  type FormatReading,
  isPlainObject,
  originOf,
  withOrigin,
} from "@toolcall/core/kit";
import { setIn } from "./set-in.js";

type Event = Record<string, unknown>;

/** What a neutral message or call was read from: an event, and for a call where its recorded call is. */
type Origin =
  | { kind: "message"; event: number }
  | { kind: "calls"; events: number[] }
  | { kind: "call"; event: number; index: number }
  | { kind: "result"; event: number };

const CALL_PATH = ["tool_call_metadata", "model_response", "choices", 0, "message", "tool_calls"] as const;

function isEvent(value: unknown): value is Event {
  return (
    isPlainObject(value) &&
    typeof value.source === "string" &&
    (typeof value.action === "string" || typeof value.observation === "string")
  );
}

/** The tool-call metadata of an event that carries one: which call it is, and the model answer that made it. */
function metadataOf(
  event: Event,
): { id: string; name: unknown; response: Record<string, unknown> } | undefined {
  const metadata = event.tool_call_metadata;
  if (!isPlainObject(metadata) || typeof metadata.tool_call_id !== "string") return undefined;
  const response = isPlainObject(metadata.model_response) ? metadata.model_response : {};
  return { id: metadata.tool_call_id, name: metadata.function_name, response };
}

/** The model answer's message (`choices[0].message`), when it has one. */
function answerMessage(response: Record<string, unknown>): Record<string, unknown> | undefined {
  const choice = Array.isArray(response.choices) ? response.choices[0] : undefined;
  return isPlainObject(choice) && isPlainObject(choice.message) ? choice.message : undefined;
}

function isTrajectory(value: unknown): value is Event[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(isEvent) &&
    value.some((event) => event.action !== undefined)
  );
}

/**
 * OpenHands trajectories (a saved session's events, `save_trajectory_path`, the files of its replay tests): a JSON
 * list of events, each an action (`action`, `args`) or an observation (`observation`, `content`, `cause`) from a
 * `source`. An action the model chose carries `tool_call_metadata` (`tool_call_id`, `function_name`, and the whole
 * `model_response`, whose `choices[0].message.tool_calls` hold the call as the model wrote it); the observation
 * answering it carries the same id. Read: user and agent `message` actions and `system` as messages, the agent's
 * tool actions as calls (actions from one model answer as one assistant message), observations with a call id as
 * results; every other event (state changes, recalls) is carried through unread. Writing back puts repaired
 * arguments in the recorded call (in every event that holds a copy of it), drops the events of dropped calls and
 * results, and adds a synthesized result as an `error` observation after its call.
 *
 * @example
 * const reading = openhandsTrajectoryFormat.read(events);
 * reading.conversations[0].messages; // the session's messages, calls and results
 */
export const openhandsTrajectoryFormat: ConversationFormat = {
  id: "openhands-trajectory",
  name: "OpenHands trajectory (events with action / observation)",
  expected: '[{"id", "source", "action" | "observation", "args" | "content", "tool_call_metadata"?}]',
  unit: "record",
  priority: 20,
  matches: isTrajectory,
  resembles: (value) =>
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((event) => isPlainObject(event) && ("action" in event || "observation" in event)),
  read(value): FormatReading {
    const events: unknown[] = Array.isArray(value) ? value : [];
    const messages: ChatMessage[] = [];
    const issues: FormatIssue[] = [];
    let group: { response: unknown; message: ChatMessage; origin: Origin & { kind: "calls" } } | undefined;
    events.forEach((event, index) => {
      if (!isEvent(event)) return;
      const metadata = metadataOf(event);
      if (typeof event.action === "string" && metadata !== undefined) {
        const answer = answerMessage(metadata.response);
        const recorded = Array.isArray(answer?.tool_calls) ? answer.tool_calls : [];
        const at = recorded.findIndex((call) => isPlainObject(call) && call.id === metadata.id);
        const call = recorded[at] as Record<string, unknown> | undefined;
        const fn = isPlainObject(call?.function) ? call.function : undefined;
        if (fn === undefined) {
          issues.push({
            code: "call_unrecorded",
            severity: "warning",
            message: `the model answer of this action does not hold call ${metadata.id}; the event is kept unread`,
            path: [index],
            place: `[${index}]`,
          });
          group = undefined;
          return;
        }
        const neutral = withOrigin(
          {
            id: metadata.id,
            type: "function",
            function: { name: fn.name ?? metadata.name, arguments: fn.arguments },
          },
          { kind: "call", event: index, index: at } satisfies Origin,
        ) as ToolCall;
        if (
          group !== undefined &&
          group.response === metadata.response.id &&
          metadata.response.id !== undefined
        ) {
          (group.message.tool_calls as ToolCall[]).push(neutral);
          group.origin.events.push(index);
          return;
        }
        const origin: Origin & { kind: "calls" } = { kind: "calls", events: [index] };
        const message = withOrigin(
          {
            role: "assistant",
            content: typeof answer?.content === "string" ? answer.content : null,
            tool_calls: [neutral],
          },
          origin,
        ) as ChatMessage;
        messages.push(message);
        group = { response: metadata.response.id, message, origin };
        return;
      }
      if (typeof event.observation === "string") {
        if (metadata === undefined) return;
        messages.push(
          withOrigin({ role: "tool", tool_call_id: metadata.id, content: event.content }, {
            kind: "result",
            event: index,
          } satisfies Origin) as ChatMessage,
        );
        return;
      }
      group = undefined;
      const args = isPlainObject(event.args) ? event.args : {};
      const role =
        event.action === "system"
          ? "system"
          : event.action === "message"
            ? event.source === "user"
              ? "user"
              : "assistant"
            : undefined;
      if (role === undefined) return;
      messages.push(
        withOrigin({ role, content: args.content ?? event.message }, {
          kind: "message",
          event: index,
        } satisfies Origin) as ChatMessage,
      );
    });
    const before = new Map<unknown, ChatMessage | ToolCall>();
    for (const message of messages) {
      before.set(originOf(message), message);
      for (const call of (message.tool_calls as ToolCall[] | undefined) ?? [])
        before.set(originOf(call), call);
    }
    const eventPlace = (path: readonly (string | number)[]): string => {
      const message = typeof path[0] === "number" ? messages[path[0]] : undefined;
      const origin = originOf(message) as Origin | undefined;
      if (origin === undefined) return "events";
      if (origin.kind === "calls") {
        const call =
          typeof path[2] === "number" ? (message?.tool_calls as unknown[] | undefined)?.[path[2]] : undefined;
        const callOrigin = originOf(call) as (Origin & { kind: "call" }) | undefined;
        if (callOrigin !== undefined)
          return `[${callOrigin.event}].tool_call_metadata.model_response.choices[0].message.tool_calls[${callOrigin.index}]`;
        return `[${origin.events[0]}]`;
      }
      return `[${origin.event}]`;
    };

    return {
      conversations: [{ messages, placeOf: eventPlace }],
      issues,
      write([next]) {
        if (next === undefined) return { ok: true, value };
        const replaced = new Map<number, unknown>();
        const kept = new Set<number>();
        const inserted = new Map<number, unknown[]>();
        let anchor = -1;
        for (const message of next) {
          if (!isPlainObject(message)) continue;
          const origin = originOf(message) as Origin | undefined;
          if (origin === undefined) {
            if (message.role !== "tool" || typeof message.tool_call_id !== "string")
              return {
                ok: false,
                reason: `a new ${String(message.role)} message has no OpenHands event form`,
              };
            const list = inserted.get(anchor) ?? [];
            list.push({
              source: "agent",
              message: message.content,
              observation: "error",
              content: message.content,
              tool_call_metadata: {
                function_name: nameOfCall(next, message.tool_call_id),
                tool_call_id: message.tool_call_id,
              },
            });
            inserted.set(anchor, list);
            continue;
          }
          const old = before.get(origin) as ChatMessage | undefined;
          if (origin.kind === "calls") {
            if (message.content !== old?.content)
              return {
                ok: false,
                reason: `[${origin.events[0]}]: the text of a model answer is not rewritten`,
              };
            for (const call of (message.tool_calls as unknown[] | undefined) ?? []) {
              const callOrigin = originOf(call) as (Origin & { kind: "call" }) | undefined;
              if (callOrigin === undefined || !isPlainObject(call))
                return { ok: false, reason: `[${origin.events[0]}]: a new call has no OpenHands event form` };
              kept.add(callOrigin.event);
              anchor = Math.max(anchor, callOrigin.event);
              const was = before.get(callOrigin) as ToolCall;
              const fn = isPlainObject(call.function) ? call.function : {};
              const oldFn = isPlainObject(was.function) ? was.function : {};
              if (fn.name === oldFn.name && fn.arguments === oldFn.arguments && call.id === was.id) continue;
              if (call.id !== was.id || fn.name !== oldFn.name)
                return { ok: false, reason: `[${callOrigin.event}]: a call's id or name is not rewritten` };
              // Every event holding the model answer (the action and its observation) gets the same arguments.
              events.forEach((event, at) => {
                if (!isEvent(event) || metadataOf(event)?.id !== was.id) return;
                const path = [...CALL_PATH, callOrigin.index, "function", "arguments"];
                const written = setIn({ value: replaced.get(at) ?? event, path, to: fn.arguments });
                if (written !== undefined) replaced.set(at, written);
              });
            }
            continue;
          }
          kept.add(origin.event);
          anchor = Math.max(anchor, origin.event);
          if (message.content === old?.content) continue;
          if (origin.kind === "message")
            return { ok: false, reason: `[${origin.event}]: the text of a message is not rewritten` };
          const event = replaced.get(origin.event) ?? events[origin.event];
          replaced.set(origin.event, setIn({ value: event, path: ["content"], to: message.content }));
        }
        const dropped = new Set<number>();
        for (const origin of before.keys()) {
          const o = origin as Origin;
          if (o.kind !== "calls" && !kept.has(o.event)) dropped.add(o.event);
        }
        if (replaced.size === 0 && dropped.size === 0 && inserted.size === 0) return { ok: true, value };
        const out: unknown[] = [...(inserted.get(-1) ?? [])];
        events.forEach((event, index) => {
          if (!dropped.has(index)) out.push(replaced.get(index) ?? event);
          out.push(...(inserted.get(index) ?? []));
        });
        return { ok: true, value: out };
      },
    };
  },
};

/** The name of the call an id names in a list of messages (for a synthesized result's metadata). */
function nameOfCall(messages: readonly unknown[], id: string): unknown {
  for (const message of messages) {
    if (!isPlainObject(message) || !Array.isArray(message.tool_calls)) continue;
    for (const call of message.tool_calls)
      if (isPlainObject(call) && call.id === id && isPlainObject(call.function)) return call.function.name;
  }
  return undefined;
}
