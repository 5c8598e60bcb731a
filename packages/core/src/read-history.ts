import { isPlainObject, setOwn } from "./define-property.js";

/**
 * How core reads values it did not make, so that every function stays total (RULES.md R1, R3–R5): a history is first
 * read directly; when that throws (a getter that throws, a revoked proxy) or meets a list too long to walk, it is
 * read again from a snapshot, a copy of plain data in which each property was read once. What cannot be read is left
 * as it is, as an entry that is not an object would be.
 */

/** Lists longer than this are read by their present entries (a sparse array costs what it holds, not its length). */
export const LIST_WALK_LIMIT = 2 ** 24;

/** Thrown by {@link walkable} to send a read to the snapshot path; not an `Error` (no stack to capture). */
const NEEDS_SNAPSHOT = Symbol("needs a snapshot");

/** `Array.isArray` that never throws: a revoked proxy is not an array. */
export function isArraySafe(value: unknown): value is readonly unknown[] {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/** Snapshot reads in progress: their lists hold present entries only, and are walked whatever their length. */
let snapshotReads = 0;

/**
 * The list itself, to walk index by index. A list longer than {@link LIST_WALK_LIMIT}, read directly, sends the read
 * to the snapshot (which keeps its present entries only).
 */
export function walkable<T extends readonly unknown[]>(list: T): T {
  if (snapshotReads === 0 && list.length > LIST_WALK_LIMIT) throw NEEDS_SNAPSHOT;
  return list;
}

/**
 * A list's entries with their indices: every index of a list short enough to walk (a hole reads as `undefined`),
 * the present entries alone, in order, of a longer one. `undefined` when the list cannot be read.
 */
export function listEntries(
  list: readonly unknown[],
): { values: unknown[]; indices: number[]; length: number } | undefined {
  try {
    const length = list.length;
    if (typeof length !== "number") return undefined;
    const values: unknown[] = [];
    const indices: number[] = [];
    // An entry whose read throws reads as a hole.
    const read = (index: number): unknown => {
      try {
        return list[index];
      } catch {
        return undefined;
      }
    };
    if (length <= LIST_WALK_LIMIT) {
      for (let i = 0; i < length; i++) {
        values.push(read(i));
        indices.push(i);
      }
      return { values, indices, length };
    }
    // Own keys list array indices first, in ascending order.
    for (const key of Object.keys(list)) {
      const index = Number(key);
      if (!Number.isInteger(index) || index < 0 || index >= length || String(index) !== key) break;
      values.push(read(index));
      indices.push(index);
    }
    return { values, indices, length };
  } catch {
    return undefined;
  }
}

/** A plain object that could not be read (its keys cannot be listed): kept as it is, as an entry that is no object. */
export class Unreadable {
  constructor(readonly original: unknown) {}
}

/**
 * A copy of a plain object's own enumerable properties, each read once; a property whose read throws is left out.
 * `undefined` when the value is not a plain object or its keys cannot be listed (a revoked proxy).
 */
export function readRecord(value: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(value)) return undefined;
  let keys: Array<string | symbol>;
  try {
    keys = [
      ...Object.keys(value),
      ...Object.getOwnPropertySymbols(value).filter((symbol) =>
        Object.prototype.propertyIsEnumerable.call(value, symbol),
      ),
    ];
  } catch {
    return undefined;
  }
  const copy: Record<string | symbol, unknown> = {};
  for (const key of keys) {
    try {
      const item = (value as Record<string | symbol, unknown>)[key];
      if (typeof key === "string") setOwn(copy as Record<string, unknown>, key, item);
      else copy[key] = item;
    } catch {
      // A property whose getter throws reads as absent.
    }
  }
  return copy as Record<string, unknown>;
}

/** A snapshot of one plain object, or a marker for one that cannot be read; anything else as it is. */
function snapshot(value: unknown, originals: Map<unknown, unknown>): unknown {
  if (!isPlainObject(value)) return value;
  const copy: unknown = readRecord(value) ?? new Unreadable(value);
  originals.set(copy, value);
  return copy;
}

/** A read of a history from snapshots, and the way back to the caller's objects. */
export interface HistorySnapshot {
  /** The entries read: snapshots of messages (their calls and functions snapshotted too), other entries as they are. */
  list: unknown[];
  /** The caller's index of each entry of `list`. */
  indices: number[];
  /** The caller's object for an entry (or a call) left as it was. */
  original(value: unknown): unknown;
}

/** Snapshots a history: each message, its `tool_calls` list (long lists by their present entries), each call, each function. */
export function snapshotHistory(messages: readonly unknown[], markHoles = true): HistorySnapshot {
  const originals = new Map<unknown, unknown>();
  const entries = listEntries(messages) ?? { values: [], indices: [] };
  const list = entries.values.map((message) => {
    const copy = snapshot(message, originals);
    if (!isPlainObject(copy)) return copy;
    const calls = copy.tool_calls;
    if (isArraySafe(calls)) {
      const read = listEntries(calls);
      if (read === undefined) {
        // A list that cannot be read is no list of calls: the message is kept as it is.
        setOwn(copy, "tool_calls", new Unreadable(calls));
        return copy;
      }
      const values = read.values;
      // The holes of a long sparse list read as one absent entry, so what reads every call sees that some are missing.
      if (markHoles && values.length < read.length && read.length > LIST_WALK_LIMIT) values.push(undefined);
      setOwn(
        copy,
        "tool_calls",
        values.map((call) => {
          const callCopy = snapshot(call, originals);
          if (isPlainObject(callCopy) && isPlainObject(callCopy.function))
            setOwn(callCopy, "function", snapshot(callCopy.function, originals));
          return callCopy;
        }),
      );
    }
    return copy;
  });
  return {
    list,
    indices: entries.indices,
    original: (value) => (originals.has(value) ? originals.get(value) : value),
  };
}

/** A read of one call from a snapshot (the call and its function), for a call that threw when read directly. */
export function snapshotCall(call: unknown): unknown {
  const originals = new Map<unknown, unknown>();
  const copy = snapshot(call, originals);
  if (isPlainObject(copy) && isPlainObject(copy.function))
    setOwn(copy, "function", snapshot(copy.function, originals));
  return copy;
}

/**
 * Runs `read` on the history as it is, and again on a snapshot of it when that throws or meets a list too long to
 * walk. `restore` maps the snapshot's result back to the caller's objects and indices.
 */
export function readHistory<R>(
  messages: readonly unknown[],
  read: (list: readonly unknown[]) => R,
  restore: (result: R, snapshot: HistorySnapshot) => R,
  markHoles = true,
): R {
  try {
    return read(walkable(messages));
  } catch {
    const snapshot = snapshotHistory(messages, markHoles);
    snapshotReads++;
    try {
      return restore(read(snapshot.list), snapshot);
    } finally {
      snapshotReads--;
    }
  }
}

/** Reads `value[key]` of a plain object; `undefined` when it is not one or the read throws. */
function readKey(value: unknown, key: string): unknown {
  if (!isPlainObject(value)) return undefined;
  try {
    return value[key];
  } catch {
    return undefined;
  }
}

/** A list longer than {@link LIST_WALK_LIMIT}: its present entries, and one `marker` when it has holes. */
function compactList(list: readonly unknown[], marker: unknown): unknown[] {
  const read = listEntries(list);
  if (read === undefined) return [];
  return read.values.length < read.length ? [...read.values, marker] : read.values;
}

function isLong(list: unknown): list is readonly unknown[] {
  if (!isArraySafe(list)) return false;
  try {
    return list.length > LIST_WALK_LIMIT;
  } catch {
    return false;
  }
}

/**
 * For code that walks every index of a history and of its messages' `tool_calls` and `content` (the provider
 * checks and fixes): `undefined` when no such list is longer than {@link LIST_WALK_LIMIT} (the common case: read
 * the history as it is). Otherwise a copy to read instead, made of present entries: a long history by its present
 * messages (`indices` gives the caller's index of each), a long `tool_calls` list by its present calls and one
 * `undefined` for its holes (a missing call), a long `content` list by its present parts and one `null` for its holes
 * (a part with no type). A sparse list of length 2**32 - 1 costs what it holds, never its length.
 */
export function compactLongLists(
  messages: readonly unknown[],
): { list: unknown[]; indices: number[] } | undefined {
  if (!isArraySafe(messages)) return undefined;
  const entries = listEntries(messages);
  if (entries === undefined) return undefined;
  let changed = entries.length > LIST_WALK_LIMIT;
  const list = entries.values.map((message) => {
    const calls = readKey(message, "tool_calls");
    const content = readKey(message, "content");
    if (!isLong(calls) && !isLong(content)) return message;
    const copy = readRecord(message);
    if (copy === undefined) return message;
    changed = true;
    if (isLong(calls)) setOwn(copy, "tool_calls", compactList(calls, undefined));
    if (isLong(content)) setOwn(copy, "content", compactList(content, null));
    return copy;
  });
  return changed ? { list, indices: entries.indices } : undefined;
}
