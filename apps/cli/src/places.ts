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
 * The tool call id at an issue's path (`[i, "tool_calls", j, …]` gives the call's id, `[i, "tool_call_id"]` the id a
 * tool result answers), when it is a string.
 *
 * @example
 * callIdAt([{ role: "tool", tool_call_id: "call_1" }], [0, "tool_call_id"]); // "call_1"
 */
export function callIdAt(
  messages: readonly unknown[],
  path: readonly (string | number)[],
): string | undefined {
  const message = typeof path[0] === "number" ? messages[path[0]] : undefined;
  if (!isPlainObject(message)) return undefined;
  if (path[1] === "tool_call_id")
    return typeof message.tool_call_id === "string" ? message.tool_call_id : undefined;
  if (path[1] === "tool_calls" && typeof path[2] === "number" && Array.isArray(message.tool_calls)) {
    const call = message.tool_calls[path[2]];
    return isPlainObject(call) && typeof call.id === "string" ? call.id : undefined;
  }
  return undefined;
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
