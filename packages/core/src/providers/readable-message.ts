import { isPlainObject, setOwn } from "../define-property.js";
import { LIST_WALK_LIMIT, listEntries, readRecord, Unreadable } from "../read-history.js";

/** A list read entry by entry, each plain object in it read once too (and a call's `function`). */
function readList(list: readonly unknown[]): unknown[] | undefined {
  const entries = listEntries(list);
  if (entries === undefined) return undefined;
  return entries.values.map((entry) => {
    if (!isPlainObject(entry)) return entry;
    const copy = readRecord(entry);
    if (copy === undefined) return new Unreadable(entry);
    if (isPlainObject(copy.function)) {
      const fn = readRecord(copy.function);
      setOwn(copy, "function", fn ?? new Unreadable(copy.function));
    }
    return copy;
  });
}

/**
 * A copy of a message that the provider fixes can read without a read throwing: each property read once (one whose
 * getter throws is left out), each list in it read entry by entry and each object in a list read once. `undefined`
 * when the message cannot be read at all (its keys cannot be listed, or one of its values is a list that cannot):
 * no fix touches such a message, and it comes back as the caller's object. Symbol keys are kept, so the origin
 * of a copy travels with it.
 *
 * @example
 * readableMessage({ role: "assistant", get content() { throw new Error("no"); } }); // { role: "assistant" }
 */
export function readableMessage(message: unknown): Record<string | symbol, unknown> | undefined {
  const copy = readRecord(message) as Record<string | symbol, unknown> | undefined;
  if (copy === undefined) return undefined;
  for (const key of Object.keys(copy)) {
    const value = copy[key];
    if (typeof value !== "object" || value === null) continue;
    let isList: boolean;
    try {
      isList = Array.isArray(value);
    } catch {
      return undefined;
    }
    if (!isList) continue;
    let length: unknown;
    try {
      length = (value as unknown[]).length;
    } catch {
      return undefined;
    }
    // A list too long to walk keeps its own reads: the fixes read it by what it holds, as core's R4 does.
    if (typeof length === "number" && length > LIST_WALK_LIMIT) continue;
    const list = readList(value as unknown[]);
    if (list === undefined) return undefined;
    setOwn(copy as Record<string, unknown>, key, list);
  }
  return copy;
}
