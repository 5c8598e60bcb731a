import type { ChatMessage, ToolCall } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatIssue,
  type FormatReading,
  isPlainObject,
  originOf,
  withOrigin,
} from "@toolcall/core/kit";
import { type CallText, readCallText, writeCallText } from "./call-text.js";
import { toolsOf } from "./dataset-tools.js";

type Part = Record<string, unknown> & { type?: unknown; value?: unknown };

/** What a neutral message or call was read from: a message, a part of it, and (for a result shared by several calls) which share. */
type Origin =
  | { kind: "message"; message: number }
  | { kind: "call"; message: number; part: number; read: CallText }
  | { kind: "result"; message: number; share: number; of: number };

function isValuePart(part: unknown): part is Part {
  return isPlainObject(part) && typeof part.type === "string" && "value" in part && !("text" in part);
}

function isV1(value: unknown): value is Record<string, unknown> & { messages: unknown[] } {
  return (
    isPlainObject(value) &&
    Array.isArray(value.messages) &&
    value.messages.some((m) => isPlainObject(m) && Array.isArray(m.content) && m.content.some(isValuePart))
  );
}

function textOf(parts: readonly unknown[], type: string): string[] {
  return parts.filter((p) => isValuePart(p) && p.type === type).map((p) => String((p as Part).value));
}

function setKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...target };
  Object.defineProperty(copy, key, { value, writable: true, enumerable: true, configurable: true });
  return copy;
}

/**
 * LLaMA-Factory's v1 data (`data/*.jsonl` for `llamafactory-cli` v1): `{messages: [{role, content: [{type, value}],
 * loss_weight?}], tools?}` with content parts `text`, `reasoning`, `tool_call` (a `{"name", "arguments"}` JSON text)
 * and media. Calls carry no ids and results no `tool_call_id`: results answer the calls of the assistant message
 * before them in order, and one result message after several calls answers them all (its text lists every result,
 * as LLaMA-Factory's demo data writes it). Writing back rewrites only the parts and messages the rules changed.
 *
 * @example
 * const reading = llamafactoryFormat.read(record);
 * reading.conversations[0].messages[2].tool_calls; // the tool_call parts as calls
 */
export const llamafactoryFormat: ConversationFormat = {
  id: "llamafactory",
  name: "LLaMA-Factory messages (content parts with value)",
  expected:
    '{"messages": [{"role", "content": [{"type": "text" | "reasoning" | "tool_call", "value"}]}], "tools"?}',
  unit: "record",
  priority: 20,
  matches: isV1,
  read(value): FormatReading {
    const record = isPlainObject(value) ? value : {};
    const source = Array.isArray(record.messages) ? record.messages : [];
    const messages: ChatMessage[] = [];
    const issues: FormatIssue[] = [];
    let pending: string[] = [];
    source.forEach((raw, index) => {
      if (!isPlainObject(raw) || !Array.isArray(raw.content)) {
        messages.push(
          withOrigin({ ...(isPlainObject(raw) ? raw : { content: raw }) }, {
            kind: "message",
            message: index,
          } satisfies Origin),
        );
        return;
      }
      const parts = raw.content;
      const role = raw.role;
      if (role === "tool") {
        // The results of a run of tool messages: one each, or all the calls in one message when it is alone.
        let run = 0;
        while (isPlainObject(source[index + run]) && (source[index + run] as Part).role === "tool") run++;
        const first = index === 0 || (source[index - 1] as Part | undefined)?.role !== "tool";
        const shares = first && run === 1 && pending.length > 1 ? pending.length : 1;
        const content = textOf(parts, "text").join("");
        for (let share = 0; share < shares; share++) {
          const id = pending.shift() ?? `result@${index}`;
          messages.push(
            withOrigin({ role: "tool", tool_call_id: id, content }, {
              kind: "result",
              message: index,
              share,
              of: shares,
            } satisfies Origin),
          );
        }
        return;
      }
      pending = [];
      const calls: ToolCall[] = [];
      parts.forEach((part, partIndex) => {
        if (!isValuePart(part) || part.type !== "tool_call") return;
        const read = readCallText(String(part.value));
        if (read.syntax !== "json") {
          issues.push({
            code: "call_unreadable",
            severity: "error",
            message: "the tool_call part is not JSON",
            path: ["messages", index, "content", partIndex],
            place: `messages[${index}].content[${partIndex}]`,
          });
        }
        const id = calls.length === 0 ? `call@${index}` : `call@${index}.${calls.length}`;
        pending.push(id);
        calls.push(
          withOrigin({ id, type: "function", function: { name: read.name, arguments: read.arguments } }, {
            kind: "call",
            message: index,
            part: partIndex,
            read,
          } satisfies Origin),
        );
      });
      const text = textOf(parts, "text").join("");
      const reasoning = textOf(parts, "reasoning").join("");
      messages.push(
        withOrigin(
          {
            role,
            content: text !== "" || calls.length === 0 ? text : null,
            ...(calls.length > 0 ? { tool_calls: calls } : {}),
            ...(reasoning !== "" ? { reasoning_content: reasoning } : {}),
          },
          { kind: "message", message: index } satisfies Origin,
        ),
      );
    });
    const tools = toolsOf(record.tools);
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
          ...(tools ? { tools } : {}),
          placeOf(path) {
            const message = typeof path[0] === "number" ? messages[path[0]] : undefined;
            const origin = originOf(message) as Origin | undefined;
            if (origin === undefined) return "messages";
            if (path[1] === "tool_calls" && typeof path[2] === "number") {
              const call = originOf((message?.tool_calls as unknown[] | undefined)?.[path[2]]) as
                | Origin
                | undefined;
              if (call?.kind === "call") return `messages[${call.message}].content[${call.part}]`;
            }
            return `messages[${origin.message}]${path.length > 1 && origin.kind !== "result" ? `.${path.slice(1).join(".")}` : ""}`;
          },
        },
      ],
      issues,
      write([next]) {
        if (next === undefined) return { ok: true, value };
        const partEdits = new Map<number, Map<number, Part | undefined>>();
        const keptMessages = new Set<number>();
        const results = new Map<number, number>();
        const added = new Map<number, unknown[]>();
        let anchor = -1;
        const editPart = (message: number, part: number, to: Part | undefined) => {
          const edits = partEdits.get(message) ?? new Map<number, Part | undefined>();
          edits.set(part, to);
          partEdits.set(message, edits);
        };
        for (const message of next) {
          if (!isPlainObject(message)) continue;
          const origin = originOf(message) as Origin | undefined;
          if (origin === undefined) {
            if (message.role !== "tool")
              return { ok: false, reason: `a new ${String(message.role)} message has no LLaMA-Factory form` };
            const list = added.get(anchor) ?? [];
            list.push({ role: "tool", content: [{ type: "text", value: String(message.content) }] });
            added.set(anchor, list);
            continue;
          }
          anchor = Math.max(anchor, origin.message);
          keptMessages.add(origin.message);
          if (origin.kind === "result") {
            const old = before.get(origin) as ChatMessage;
            if (message.content !== old.content) {
              if (origin.of > 1)
                return {
                  ok: false,
                  reason: `messages[${origin.message}]: one result of several cannot change alone`,
                };
              const raw = (source[origin.message] as Part).content as Part[];
              const at = raw.findIndex((p) => isValuePart(p) && p.type === "text");
              const part = raw[at];
              if (part === undefined)
                return { ok: false, reason: `messages[${origin.message}] holds no text to change` };
              editPart(origin.message, at, setKey(part, "value", message.content) as Part);
            }
            results.set(origin.message, (results.get(origin.message) ?? 0) + 1);
          }
          const calls = (message.tool_calls as ToolCall[] | undefined) ?? [];
          const keptCalls = new Set(calls.map((call) => originOf(call)));
          const old = before.get(origin) as ChatMessage | undefined;
          for (const oldCall of (old?.tool_calls as ToolCall[] | undefined) ?? []) {
            const callOrigin = originOf(oldCall) as Origin & { kind: "call" };
            if (!keptCalls.has(callOrigin)) editPart(callOrigin.message, callOrigin.part, undefined);
          }
          for (const call of calls) {
            const callOrigin = originOf(call) as (Origin & { kind: "call" }) | undefined;
            if (callOrigin === undefined)
              return { ok: false, reason: "a new call has no LLaMA-Factory form" };
            const oldCall = before.get(callOrigin) as ToolCall;
            const fn = isPlainObject(call.function) ? call.function : {};
            const oldFn = isPlainObject(oldCall.function) ? oldCall.function : {};
            if (fn.arguments === oldFn.arguments && fn.name === oldFn.name) continue;
            const text = writeCallText(callOrigin.read, fn.name, fn.arguments);
            const part = ((source[callOrigin.message] as Part).content as Part[])[callOrigin.part] as Part;
            if (text === undefined) return { ok: false, reason: "a call that is not JSON is not rewritten" };
            editPart(callOrigin.message, callOrigin.part, setKey(part, "value", text) as Part);
          }
        }
        for (const [message, count] of results) {
          const origin = [...before.keys()].find(
            (o) => (o as Origin).kind === "result" && (o as Origin).message === message,
          ) as Origin & { kind: "result" };
          if (count !== origin.of)
            return { ok: false, reason: `messages[${message}]: one result of several cannot go alone` };
        }
        const out: unknown[] = [...(added.get(-1) ?? [])];
        let changed = out.length > 0;
        source.forEach((raw, index) => {
          const edits = partEdits.get(index);
          if (!keptMessages.has(index)) changed = true;
          else if (edits === undefined) out.push(raw);
          else {
            changed = true;
            const parts = ((raw as Part).content as Part[]).flatMap((part, j) => {
              if (!edits.has(j)) return [part];
              const to = edits.get(j);
              return to === undefined ? [] : [to];
            });
            out.push({ ...(raw as Part), content: parts });
          }
          const extra = added.get(index);
          if (extra !== undefined) {
            changed = true;
            out.push(...extra);
          }
        });
        return { ok: true, value: changed ? { ...record, messages: out } : value };
      },
    };
  },
};
