import { isPlainObject } from "@toolcall/core/kit";
import { AI_SDK_ORIGIN, getTag, isCarried } from "./origin.js";

/** Where a record keeps its saved messages: a bare list, or the `messages` of an object (a request body, a chat). */
export interface StoredList {
  list: unknown[];
  /** `messages` when the list is a key of an object. */
  key?: "messages";
}

/**
 * The saved messages of a record when every one has a format's shape: a bare list, or `{messages: [...]}`.
 *
 * @example
 * storedListOf({ messages: [{ role: "user", content: "hi" }] }, () => true)?.key; // "messages"
 */
export function storedListOf(
  value: unknown,
  isMessage: (message: unknown) => boolean,
): StoredList | undefined {
  const list = Array.isArray(value)
    ? value
    : isPlainObject(value) && Array.isArray(value.messages)
      ? value.messages
      : undefined;
  if (list === undefined || list.length === 0 || !list.every(isMessage)) return undefined;
  return Array.isArray(value) ? { list } : { list, key: "messages" };
}

/** The record with its list replaced, every other key kept in its place (the record itself when nothing changed). */
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
  for (const key of Object.keys(record)) {
    Object.defineProperty(out, key, {
      value: key === found.key ? list : record[key],
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * The neutral view of a saved list, split for the record engine: the messages core checks, and the entries it
 * cannot hold (a message of approvals only, kept by a `CarriedMessage`) with the index of the saved message each came
 * from, so writing back puts them where they were.
 */
export interface SplitEntries {
  messages: unknown[];
  carried: Array<{ entry: unknown; owner: number }>;
}

/**
 * Splits neutral entries into what core checks and what it cannot hold.
 *
 * @example
 * const { messages, carried } = splitCarried({ entries, owners });
 */
export function splitCarried(options: {
  entries: readonly unknown[];
  owners: readonly number[];
}): SplitEntries {
  const messages: unknown[] = [];
  const carried: SplitEntries["carried"] = [];
  options.entries.forEach((entry, i) => {
    if (isCarried(entry)) carried.push({ entry, owner: options.owners[i] as number });
    else messages.push(entry);
  });
  return { messages, carried };
}

/**
 * The entries to write: the messages core gave back, with each carried entry put back before the first message that
 * came from a later saved message (messages a rule made have no origin and move nothing).
 *
 * @example
 * const entries = mergeCarried({ next, carried, indexOf });
 */
export function mergeCarried(options: {
  next: readonly unknown[];
  carried: SplitEntries["carried"];
  indexOf: ReadonlyMap<unknown, number>;
}): unknown[] {
  const { next, carried, indexOf } = options;
  const out: unknown[] = [];
  let waiting = 0;
  for (const entry of next) {
    const source = getTag<{ message?: unknown }>(entry, AI_SDK_ORIGIN)?.message;
    const owner = source === undefined ? undefined : indexOf.get(source);
    if (owner !== undefined) {
      while (waiting < carried.length && (carried[waiting]?.owner as number) < owner)
        out.push(carried[waiting++]?.entry);
    }
    out.push(entry);
  }
  while (waiting < carried.length) out.push(carried[waiting++]?.entry);
  return out;
}

/** A path in a record for people: `messages[3].content[1]`, or `[3].content[1]` in a bare list. */
export function placeOfPart(options: {
  key: string | undefined;
  message: number;
  field: string;
  part?: number;
}): string {
  const base = `${options.key ?? ""}[${options.message}]`;
  return options.part === undefined ? base : `${base}.${options.field}[${options.part}]`;
}
