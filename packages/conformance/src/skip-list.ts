/** A compiled skip list: which entry skips an id, and which entries skip nothing. */
export interface SkipList {
  /** The entry that skips `id`, or `undefined`. */
  match(id: string): string | undefined;
  /** The entries that name no id of `ids` (a typo, or a vector that was renamed or removed). */
  unmatched(ids: Iterable<string>): string[];
}

/**
 * One skip syntax for every runner: an entry is a vector id (`r1-statuses-null-is-absent`) or an id prefix ending
 * in `*` (`r1-lossless-*`, `r6-*`). Nothing else matches: no globs inside an entry, no case folding.
 *
 * @example
 * const skip = skipList(["r1-lossless-*", "r4-sanitize-empty-only-call"]);
 * skip.match("r1-lossless-python-float-written-1-0"); // "r1-lossless-*"
 * skip.match("r1-statuses-null-is-absent"); // undefined
 */
export function skipList(entries: Iterable<string> = []): SkipList {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  const all: string[] = [];
  for (const entry of entries) {
    all.push(entry);
    if (entry.endsWith("*")) prefixes.push(entry.slice(0, -1));
    else exact.add(entry);
  }
  const match = (id: string): string | undefined => {
    if (exact.has(id)) return id;
    const prefix = prefixes.find((p) => id.startsWith(p));
    return prefix === undefined ? undefined : `${prefix}*`;
  };
  return {
    match,
    unmatched(ids) {
      const used = new Set<string>();
      for (const id of ids) {
        const entry = match(id);
        if (entry !== undefined) used.add(entry);
        if (exact.has(id)) used.add(id);
        for (const prefix of prefixes) if (id.startsWith(prefix)) used.add(`${prefix}*`);
      }
      return all.filter((entry) => !used.has(entry));
    },
  };
}
