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
  let out = "messages";
  for (const key of issue.path)
    out +=
      typeof key === "number"
        ? `[${key}]`
        : /^[A-Za-z_$][\w$]*$/.test(key)
          ? `.${key}`
          : `[${JSON.stringify(key)}]`;
  return out;
}
