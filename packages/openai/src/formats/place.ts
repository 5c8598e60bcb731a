/**
 * A path in a record as people read it: `messages[3].tool_calls[0].function.arguments`, or `[2].content` for a
 * path from a bare list.
 *
 * @example
 * placeIn("messages", [3, "tool_calls", 0]); // "messages[3].tool_calls[0]"
 * placeIn("", [2, "content"]); // "[2].content"
 */
export function placeIn(prefix: string, path: readonly (string | number)[]): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}
