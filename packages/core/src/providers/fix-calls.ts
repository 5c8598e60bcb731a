import { isPlainObject } from "../define-property.js";
import type { ToolCall } from "../types.js";
import { idAccepted, nameAccepted } from "./check-calls.js";
import { callsOf, chat, type Fix, mapMessages, without } from "./fix-context.js";
import { remapId, remapName } from "./remap-id.js";

/** Replaces the calls of one assistant message through `change`, copying only what changed. */
function mapCalls(message: unknown, change: (call: ToolCall, index: number) => ToolCall): unknown {
  const calls = callsOf(chat(message));
  if (calls === undefined) return message;
  let out: unknown[] | undefined;
  calls.forEach((call, index) => {
    const next = isPlainObject(call) ? change(call as ToolCall, index) : call;
    if (next !== call && out === undefined) out = calls.slice(0, index);
    out?.push(next);
  });
  return out === undefined ? message : { ...(message as object), tool_calls: out };
}

/**
 * `tool_call_id_invalid`: each refused call id gets a new one ({@link remapId}); the results of the call follow it.
 * Core's R4 ran first, so call ids are unique in the history and each result answers a call of its turn.
 */
export const fixToolCallIds: Fix = (messages, constraint, context) => {
  const params = constraint.params ?? {};
  const used = new Set<string>();
  for (const message of messages)
    for (const call of callsOf(chat(message)) ?? []) {
      const id = isPlainObject(call) ? call.id : undefined;
      if (typeof id === "string") used.add(id);
    }
  const mapping = new Map<string, string>();
  const record = (message: unknown, before: string, after: string) =>
    context.record({
      rule: "call_id_remapped",
      constraint: constraint.code,
      messageIndex: context.origin(message),
      toolCallId: after,
      before,
      after,
    });
  const withCalls = mapMessages(messages, (message) =>
    mapCalls(message, (call) => {
      const id = call.id;
      if (typeof id !== "string" || id === "" || idAccepted(id, params)) return call;
      const fresh = remapId(id, params, used);
      if (fresh === undefined) return call;
      used.add(fresh);
      mapping.set(id, fresh);
      record(message, id, fresh);
      return { ...call, id: fresh };
    }),
  );
  if (mapping.size === 0) return withCalls;
  return mapMessages(withCalls, (message) => {
    const result = chat(message);
    const id = result?.role === "tool" ? result.tool_call_id : undefined;
    const fresh = typeof id === "string" ? mapping.get(id) : undefined;
    if (result === undefined || fresh === undefined) return message;
    record(message, id as string, fresh);
    return { ...result, tool_call_id: fresh };
  });
};

/** `name_invalid`: each refused function name becomes one the pattern accepts ({@link remapName}). */
export const fixNames: Fix = (messages, constraint, context) => {
  const params = constraint.params ?? {};
  return mapMessages(messages, (message) =>
    mapCalls(message, (call) => {
      const fn = call.function;
      const name = isPlainObject(fn) ? fn.name : undefined;
      if (!isPlainObject(fn) || typeof name !== "string" || name === "" || nameAccepted(name, params))
        return call;
      const renamed = remapName(name, params);
      context.record({
        rule: "name_renamed",
        constraint: constraint.code,
        messageIndex: context.origin(message),
        toolCallId: typeof call.id === "string" ? call.id : undefined,
        before: name,
        after: renamed,
      });
      return { ...call, function: { ...fn, name: renamed } };
    }),
  );
};

/** Where a call keeps its Gemini thought signature in core's neutral view. */
function signatureOf(call: ToolCall): unknown {
  const extra = call.extra_content;
  const google = isPlainObject(extra) ? extra.google : undefined;
  return isPlainObject(google) ? google.thought_signature : undefined;
}

/** `thought_signature_missing`: the first call of each unsigned step of the current turn gets the documented skip value. */
export const fixThoughtSignatures: Fix = (messages, constraint, context) => {
  const signature = constraint.params?.signature ?? "skip_thought_signature_validator";
  let start = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    if (chat(messages[index])?.role === "user") {
      start = index + 1;
      break;
    }
  }
  return mapMessages(messages, (message, index) =>
    index < start
      ? message
      : mapCalls(message, (call, position) => {
          const current = signatureOf(call);
          if (position !== 0 || (typeof current === "string" && current !== "")) return call;
          const extra = isPlainObject(call.extra_content) ? call.extra_content : {};
          const google = isPlainObject(extra.google) ? extra.google : {};
          const after = { ...extra, google: { ...google, thought_signature: signature } };
          context.record({
            rule: "thought_signature_added",
            constraint: constraint.code,
            messageIndex: context.origin(message),
            toolCallId: typeof call.id === "string" ? call.id : undefined,
            before: call.extra_content,
            after,
          });
          return { ...call, extra_content: after };
        }),
  );
};

/** True when a message carries a Responses API reasoning item (`reasoning_details` entry in its format). */
export function hasResponsesReasoning(message: unknown): boolean {
  const details = chat(message)?.reasoning_details;
  return (
    Array.isArray(details) &&
    details.some((entry) => isPlainObject(entry) && entry.format === "openai-responses-v1")
  );
}

/** `reasoning_item_missing`: a call's stored item id is left out when its reasoning item is not in the history. */
export const fixReasoningItems: Fix = (messages, constraint, context) =>
  mapMessages(messages, (message) =>
    hasResponsesReasoning(message)
      ? message
      : mapCalls(message, (call) => {
          const extra = call.extra_content;
          const openai = isPlainObject(extra) ? extra.openai : undefined;
          const itemId = isPlainObject(openai) ? openai.item_id : undefined;
          if (!isPlainObject(extra) || !isPlainObject(openai) || typeof itemId !== "string" || itemId === "")
            return call;
          context.record({
            rule: "item_id_removed",
            constraint: constraint.code,
            messageIndex: context.origin(message),
            toolCallId: typeof call.id === "string" ? call.id : undefined,
            before: itemId,
          });
          const rest = without(openai, "item_id");
          const nextExtra =
            Object.keys(rest).length > 0 ? { ...extra, openai: rest } : without(extra, "openai");
          return Object.keys(nextExtra).length > 0
            ? { ...call, extra_content: nextExtra }
            : without(call, "extra_content");
        }),
  );
