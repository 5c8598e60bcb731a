/**
 * Arguments as `InvalidToolCall.args` holds them: the text itself, or the JSON text of a native value (`undefined`
 * for none, or for a value JSON cannot hold).
 *
 * @example
 * argumentsText("{oops"); // "{oops"
 * argumentsText([1, 2]); // "[1,2]"
 */
export function argumentsText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
