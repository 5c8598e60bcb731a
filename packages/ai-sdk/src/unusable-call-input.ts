/**
 * Whether the AI SDK would read `text` as arguments a tool can run on: blank text (the SDK validates `{}` in its
 * place) or text that is a JSON object to `JSON.parse`, which knows no nesting limit and no raw sentinel.
 */
function sdkReadsAnObject(text: string): boolean {
  if (text.trim() === "") return true;
  if (text.trimStart()[0] !== "{") return false;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * The `input` text the AI SDK gets for a call core found unusable (`normalizeAnswerArguments` → `usable: false`),
 * so that the SDK holds the model's own text and reports the call as invalid. Usually that is the text itself: the
 * SDK's parse or the tool's schema refuses it. Text the SDK would read as an object a tool runs on (nesting deeper
 * than core's limit, a raw sentinel left by an earlier stage, nothing before a length stop) is handed over as a JSON
 * string literal of itself: the SDK parses it back to the model's text (a string, which no tool schema of an object
 * accepts), so the call is invalid and carries exactly what the model wrote, never a deep object the SDK's own
 * deep copies cannot survive.
 *
 * @example
 * unusableCallInput("{bad"); // "{bad"
 * unusableCallInput('{"_raw_arguments": "{\\"a\\": "}'); // the JSON string literal of that text
 */
export function unusableCallInput(text: string): string {
  return sdkReadsAnObject(text) ? JSON.stringify(text) : text;
}
