import { isPlainObject, setOwn } from "../define-property.js";

/** Where a record keeps its saved messages: a bare list, or the `messages` of an object (a request body, a chat, a state). */
export interface StoredList {
  list: unknown[];
  /** `messages` when the list is a key of an object. */
  key?: "messages";
}

/**
 * The saved messages of a record when every one has a format's shape: a bare list, or `{messages: [...]}` (any other
 * keys beside it). A format's `read` finds its list with it, and writes it back with {@link withStoredList}.
 *
 * @example
 * storedListOf({ value: { model: "m", messages: [{ role: "user", content: "hi" }] }, isMessage: () => true })?.key; // "messages"
 * storedListOf({ value: [], isMessage: () => true }); // undefined (an empty list is no record, unless allowEmpty)
 */
export function storedListOf(options: {
  value: unknown;
  isMessage: (message: unknown) => boolean;
  /** A written record may hold no message left (every one was a rule's to drop): it still reads. */
  allowEmpty?: boolean;
}): StoredList | undefined {
  const { value, isMessage } = options;
  const list = Array.isArray(value)
    ? value
    : isPlainObject(value) && Array.isArray(value.messages)
      ? value.messages
      : undefined;
  if (list === undefined || (list.length === 0 && options.allowEmpty !== true) || !list.every(isMessage))
    return undefined;
  return Array.isArray(value) ? { list } : { list, key: "messages" };
}

/**
 * The record with its list replaced, every other key kept in its place and order (a `__proto__` key stays data); the
 * record itself when every message is the one it held.
 *
 * @example
 * const value = { model: "m", messages: [{ role: "user", content: "hi" }], stream: false };
 * const found = storedListOf({ value, isMessage: () => true });
 * if (found) withStoredList({ value, found, list: [] }); // { model: "m", messages: [], stream: false }
 */
export function withStoredList(options: {
  value: unknown;
  found: StoredList;
  list: readonly unknown[];
}): unknown {
  const { value, found, list } = options;
  if (list.length === found.list.length && list.every((message, i) => message === found.list[i]))
    return value;
  if (found.key === undefined) return list;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) setOwn(out, key, key === found.key ? list : record[key]);
  return out;
}
