import { AI_SDK_ORIGIN, getTag, isCarried } from "./origin.js";

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
