import { type ChatMessage, parseJson, type ToolCall } from "@toolcall/core";
import { isPlainObject } from "@toolcall/core/kit";
import { type DictEnvelope, dictOriginOf, fieldsOf, neutralOfDict } from "./message-dict-view.js";

type Fields = Record<string, unknown>;
type Written = { ok: true; list: unknown[] } | { ok: false; reason: string };

/** A copy of an object with some keys replaced (in place) or added (at the end), every other key kept in order. */
function replaced(source: Fields, changes: ReadonlyMap<string, unknown>): Fields {
  const out: Fields = {};
  const define = (key: string, value: unknown) =>
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  for (const key of Object.keys(source)) define(key, changes.has(key) ? changes.get(key) : source[key]);
  for (const [key, value] of changes) if (!(key in source)) define(key, value);
  return out;
}

function argumentsObject(text: unknown): Fields | undefined {
  if (typeof text !== "string") return undefined;
  const parsed = parseJson(text, { lossless: true });
  return parsed.success && isPlainObject(parsed.value) ? parsed.value : undefined;
}

/** The calls of an assistant message after the rules: each list rebuilt from its calls, unchanged ones the same. */
function rebuildCalls(
  fields: Fields,
  entry: ChatMessage,
  before: ChatMessage,
): Map<string, unknown> | string {
  const kept = { tool_calls: [] as unknown[], invalid_tool_calls: [] as unknown[] };
  const changedIds = new Map<unknown, { name: unknown; text: unknown }>();
  const keptIds = new Set<unknown>();
  const beforeCalls = (before.tool_calls ?? []) as ToolCall[];
  for (const call of (entry.tool_calls ?? []) as ToolCall[]) {
    const origin = dictOriginOf(call);
    const fn = (isPlainObject(call.function) ? call.function : {}) as Fields;
    keptIds.add(call.id);
    const source =
      origin?.list === undefined ? undefined : (fields[origin.list] as unknown[])[origin.index as number];
    const old = beforeCalls.find((candidate) => {
      const at = dictOriginOf(candidate);
      return at?.list === origin?.list && at?.index === origin?.index;
    });
    const oldFn = (isPlainObject(old?.function) ? old.function : {}) as Fields;
    if (
      origin?.list !== undefined &&
      old !== undefined &&
      old.id === call.id &&
      oldFn.name === fn.name &&
      oldFn.arguments === fn.arguments
    ) {
      kept[origin.list].push(source);
      continue;
    }
    const args = argumentsObject(fn.arguments);
    const base = isPlainObject(source) ? source : {};
    changedIds.set(call.id, { name: fn.name, text: fn.arguments });
    if (args === undefined) {
      if (origin?.list === "invalid_tool_calls")
        kept.invalid_tool_calls.push(
          replaced(
            base,
            new Map<string, unknown>([
              ["args", fn.arguments],
              ["name", fn.name],
              ["id", call.id],
            ]),
          ),
        );
      else return "LangChain keeps a call's args as an object; these are not one";
      continue;
    }
    // A call whose arguments now read as an object is a tool call, as LangChain makes one it could parse.
    const { error: _error, ...rest } = base;
    kept.tool_calls.push(
      replaced(
        rest,
        new Map<string, unknown>([
          ["name", fn.name],
          ["args", args],
          ["id", call.id],
          ["type", "tool_call"],
        ]),
      ),
    );
  }
  const changes = new Map<string, unknown>();
  for (const list of ["tool_calls", "invalid_tool_calls"] as const) {
    const old = Array.isArray(fields[list]) ? (fields[list] as unknown[]) : [];
    const next = kept[list];
    const same = next.length === old.length && next.every((call, i) => call === old[i]);
    if (!same && (next.length > 0 || list in fields)) changes.set(list, next);
  }
  if (changes.size === 0) return changes;
  const dropped = (id: unknown) => !keptIds.has(id);
  // OpenAI's raw calls and Anthropic's tool_use blocks beside them say the same: kept in step.
  const extra = isPlainObject(fields.additional_kwargs) ? fields.additional_kwargs : undefined;
  if (extra !== undefined && Array.isArray(extra.tool_calls)) {
    const raw = extra.tool_calls
      .filter((call) => !(isPlainObject(call) && dropped(call.id)))
      .map((call) => {
        const change = isPlainObject(call) ? changedIds.get(call.id) : undefined;
        if (change === undefined || !isPlainObject(call)) return call;
        const fn = isPlainObject(call.function) ? call.function : {};
        return replaced(
          call,
          new Map([
            [
              "function",
              replaced(
                fn,
                new Map([
                  ["name", change.name],
                  ["arguments", change.text],
                ]),
              ),
            ],
          ]),
        );
      });
    changes.set("additional_kwargs", replaced(extra, new Map([["tool_calls", raw]])));
  }
  if (
    Array.isArray(fields.content) &&
    fields.content.some((block) => isPlainObject(block) && block.type === "tool_use")
  ) {
    changes.set(
      "content",
      fields.content
        .filter((block) => !(isPlainObject(block) && block.type === "tool_use" && dropped(block.id)))
        .map((block) => {
          const change =
            isPlainObject(block) && block.type === "tool_use" ? changedIds.get(block.id) : undefined;
          const args = change === undefined ? undefined : argumentsObject(change.text);
          return args === undefined || !isPlainObject(block)
            ? block
            : replaced(block, new Map([["input", args]]));
        }),
    );
  }
  return changes;
}

/** A message after the rules: itself when nothing of it changed, else a copy with what changed. */
function rebuilt(options: {
  message: Fields;
  entry: ChatMessage;
  envelope: DictEnvelope;
  index: number;
}): unknown | string {
  const { message, entry, envelope, index } = options;
  const fields = fieldsOf(message, envelope) as Fields;
  const before = neutralOfDict(message, index, envelope) as ChatMessage;
  const changes = new Map<string, unknown>();
  if (entry.role === "assistant") {
    const calls = rebuildCalls(fields, entry, before);
    if (typeof calls === "string") return calls;
    for (const [key, value] of calls) changes.set(key, value);
  }
  if (entry.role === "tool" && entry.tool_call_id !== before.tool_call_id)
    changes.set("tool_call_id", entry.tool_call_id);
  if (entry.content !== before.content && !(entry.role === "assistant" && changes.has("content"))) {
    if (typeof fields.content !== "string" && Array.isArray(fields.content) && entry.role !== "tool")
      return `${envelope.key} of message ${index}: a changed text in a list of blocks is not rewritten`;
    changes.set("content", entry.content ?? "");
  }
  if (changes.size === 0) return message;
  return replaced(message, new Map([[envelope.key, replaced(fields, changes)]]));
}

/**
 * The list of message dicts after the rules changed its neutral view: kept messages are the same objects (or copies
 * with what changed), dropped ones go, a result a rule added is a new tool message after the message before it, and
 * every message the view does not hold stays where it was.
 */
export function writeMessageDicts(options: {
  list: readonly unknown[];
  next: readonly unknown[];
  envelope: DictEnvelope;
}): Written {
  const { list, next, envelope } = options;
  const kept = new Map<number, unknown>();
  const added = new Map<number, unknown[]>();
  const names = new Map<unknown, unknown>();
  let anchor = -1;
  for (const entry of next) {
    if (!isPlainObject(entry)) return { ok: false, reason: "a message is not an object" };
    const origin = dictOriginOf(entry);
    if (origin === undefined) {
      if (entry.role !== "tool")
        return { ok: false, reason: `a new ${String(entry.role)} message has no LangChain form` };
      const fresh = envelope.toolResult({
        content: entry.content,
        toolCallId: entry.tool_call_id,
        name: names.get(entry.tool_call_id),
        list,
      });
      added.set(anchor, [...(added.get(anchor) ?? []), fresh]);
      continue;
    }
    anchor = origin.message;
    for (const call of (entry.tool_calls ?? []) as ToolCall[])
      names.set(call.id, isPlainObject(call.function) ? call.function.name : undefined);
    const out = rebuilt({
      message: list[origin.message] as Fields,
      entry: entry as ChatMessage,
      envelope,
      index: origin.message,
    });
    if (typeof out === "string") return { ok: false, reason: out };
    kept.set(origin.message, out);
  }
  const out: unknown[] = [...(added.get(-1) ?? [])];
  list.forEach((message, index) => {
    if (kept.has(index)) out.push(kept.get(index));
    else if (neutralOfDict(message, index, envelope) === undefined) out.push(message);
    out.push(...(added.get(index) ?? []));
  });
  return { ok: true, list: out };
}
