import { isPlainObject } from "@toolcall/core/kit";
import { dictOriginOf } from "./message-dict-view.js";

/** Where a record keeps its message dicts: a bare list, or the `messages` of an object (a graph's state). */
export interface DictList {
  list: unknown[];
  key?: "messages";
}

/**
 * The message dicts of a record when every one has a form's shape: a bare list, or `{messages: [...]}`.
 *
 * @example
 * storedDictsOf({ messages: [{ type: "human", data: { content: "hi" } }] }, () => true)?.key; // "messages"
 */
export function storedDictsOf(value: unknown, isMessage: (value: unknown) => boolean): DictList | undefined {
  const list = Array.isArray(value)
    ? value
    : isPlainObject(value) && Array.isArray(value.messages)
      ? value.messages
      : undefined;
  if (list === undefined || list.length === 0 || !list.every(isMessage)) return undefined;
  return Array.isArray(value) ? { list } : { list, key: "messages" };
}

/** The record with its list replaced, every other key kept in its place (the record itself when nothing changed). */
export function withDicts(options: { value: unknown; found: DictList; list: readonly unknown[] }): unknown {
  const { value, found, list } = options;
  if (list.length === found.list.length && list.every((message, i) => message === found.list[i]))
    return value;
  if (found.key === undefined) return list;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record))
    Object.defineProperty(out, key, {
      value: key === found.key ? list : record[key],
      writable: true,
      enumerable: true,
      configurable: true,
    });
  return out;
}

/** A neutral path as a place in the record: `messages[3].data.tool_calls[0]`, `[2].kwargs.invalid_tool_calls[1]`. */
export function placeOfDict(options: {
  messages: readonly unknown[];
  path: readonly (string | number)[];
  key: string | undefined;
  field: string;
}): string {
  const { messages, path } = options;
  const message = typeof path[0] === "number" ? messages[path[0]] : undefined;
  const origin = dictOriginOf(message);
  if (origin === undefined) return options.key ?? "";
  const base = `${options.key ?? ""}[${origin.message}]`;
  if (path[1] === "tool_calls" && typeof path[2] === "number" && isPlainObject(message)) {
    const call = dictOriginOf((message.tool_calls as unknown[] | undefined)?.[path[2]]);
    if (call?.list !== undefined) return `${base}.${options.field}.${call.list}[${call.index}]`;
  }
  return base;
}
