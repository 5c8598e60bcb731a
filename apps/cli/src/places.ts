import { isPlainObject } from "@toolcall/core/kit";

/** Where a record is in its file. */
export interface RecordPlace {
  /** The JSONL line (1-based), or the first line of a session. */
  line?: number;
  /** The element of a JSON array of records. */
  index?: number;
}

/**
 * A path from core (message index first) as the reader knows it from the file: `messages[2].tool_calls[0].function`.
 *
 * @example
 * formatPath([2, "tool_calls", 0, "function", "arguments"]); // "messages[2].tool_calls[0].function.arguments"
 */
export function formatPath(path: readonly (string | number)[]): string {
  let out = "messages";
  for (const key of path) {
    out +=
      typeof key === "number"
        ? `[${key}]`
        : /^[A-Za-z_$][\w$]*$/.test(key)
          ? `.${key}`
          : `[${JSON.stringify(key)}]`;
  }
  return out;
}

/**
 * Where a finding is, as the reports write it: the file, and the line or the array element when there is one.
 *
 * @example
 * findingPlace("a.jsonl", { line: 3 }); // { file: "a.jsonl", line: 3 }
 * findingPlace("b.json", { index: 0 }); // { file: "b.json", record: 0 }
 */
export function findingPlace(
  file: string,
  place: RecordPlace,
): { file: string; line?: number; record?: number } {
  return {
    file,
    ...(place.line !== undefined ? { line: place.line } : {}),
    ...(place.index !== undefined ? { record: place.index } : {}),
  };
}
