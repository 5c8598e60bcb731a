import type { ChatMessage } from "@toolcall/core";
import { isPlainObject, type StoredList } from "@toolcall/core/kit";
import { AI_SDK_ORIGIN, AI_SDK_PART, getTag, isCarried } from "./origin.js";
import { placeOfPart, type SavedListView } from "./read-saved-list.js";

/**
 * The view of a saved list read into tagged neutral entries (ModelMessages, UIMessages): the messages core checks,
 * and the entries it cannot hold (a message of approvals only, kept by a `CarriedMessage`) set aside with the index
 * of the saved message each came from, so writing back puts them where they were. Places come from each entry's
 * origin tag (its message and part; a call's own part tag), under the format's `field` (`content`, `parts`).
 *
 * @example
 * const view = carriedView({ found, entries, owners, field: "parts", write: (entries) => fromUiNeutralEntries({ messages: found.list, entries }) });
 */
export function carriedView(options: {
  found: StoredList;
  /** The neutral entries, in order, and for each the index of the saved message it came from. */
  entries: readonly unknown[];
  owners: readonly number[];
  field: string;
  /** The saved list for the entries to write (the messages a rule gave back, the carried ones put back in). */
  write: (entries: unknown[]) => unknown[];
}): SavedListView {
  const { found, owners } = options;
  const messages: unknown[] = [];
  const carried: Array<{ entry: unknown; owner: number }> = [];
  options.entries.forEach((entry, i) => {
    if (isCarried(entry)) carried.push({ entry, owner: owners[i] as number });
    else messages.push(entry);
  });
  const indexOf = new Map<unknown, number>(found.list.map((message, index) => [message, index]));
  return {
    messages: messages as ChatMessage[],
    placeOf(path) {
      const entry = typeof path[0] === "number" ? messages[path[0]] : undefined;
      const origin = getTag<{ message?: unknown; part?: number }>(entry, AI_SDK_ORIGIN);
      const index = origin === undefined ? undefined : indexOf.get(origin.message);
      if (index === undefined) return found.key ?? "";
      let part = origin?.part;
      if (path[1] === "tool_calls" && typeof path[2] === "number" && isPlainObject(entry)) {
        const call = (entry.tool_calls as unknown[] | undefined)?.[path[2]];
        part = getTag<number>(call, AI_SDK_PART);
      }
      return placeOfPart({
        key: found.key,
        message: index,
        field: options.field,
        ...(part === undefined ? {} : { part }),
      });
    },
    write: (next) => ({ ok: true, list: options.write(mergeCarried({ next, carried, indexOf })) }),
  };
}

/**
 * The entries to write: the messages core gave back, with each carried entry put back before the first message that
 * came from a later saved message (messages a rule made have no origin and move nothing).
 */
function mergeCarried(options: {
  next: readonly unknown[];
  carried: ReadonlyArray<{ entry: unknown; owner: number }>;
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
