/**
 * A path in a record as people read it: `messages[3].tool_calls[0].function.arguments`, `[2].content` from a bare
 * list; a key that is no plain name is quoted (`messages[0]["a b"]`). Formats write their `placeOf` with it, so every
 * format names a place the same way.
 *
 * @example
 * placeOfPath({ prefix: "messages", path: [3, "tool_calls", 0] }); // "messages[3].tool_calls[0]"
 * placeOfPath({ prefix: "", path: [2, "content"] }); // "[2].content"
 */
export function placeOfPath(options: { prefix: string; path: readonly (string | number)[] }): string {
  let out = options.prefix;
  for (const key of options.path)
    out +=
      typeof key === "number"
        ? `[${key}]`
        : /^[A-Za-z_$][\w$]*$/.test(key)
          ? out === ""
            ? key
            : `.${key}`
          : `[${JSON.stringify(key)}]`;
  return out;
}

/**
 * Where an issue is, as a reader of the record finds it: the place its format named (`conversations[4]`,
 * `messages[1].content[0].input`), or else core's path written out from the message list
 * (`messages[2].tool_calls[0].function.arguments`); `undefined` for an issue about the record as a whole. Every door
 * of the record engine shows issues by this one rule.
 *
 * @example
 * issuePlace({ path: [2, "tool_calls", 0, "id"] }); // "messages[2].tool_calls[0].id"
 * issuePlace({ path: [1], place: "conversations[1]" }); // "conversations[1]"
 */
export function issuePlace(issue: {
  place?: string;
  path: readonly (string | number)[];
}): string | undefined {
  if (issue.place !== undefined) return issue.place;
  if (issue.path.length === 0) return undefined;
  return placeOfPath({ prefix: "messages", path: issue.path });
}
