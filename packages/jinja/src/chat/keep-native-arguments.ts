function callsOf(message: unknown): unknown[] | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const calls = (message as { tool_calls?: unknown }).tool_calls;
  return Array.isArray(calls) ? calls : undefined;
}

function functionOf(call: unknown): Record<string, unknown> | undefined {
  if (typeof call !== "object" || call === null) return undefined;
  const fn = (call as { function?: unknown }).function;
  return typeof fn === "object" && fn !== null ? (fn as Record<string, unknown>) : undefined;
}

/**
 * Puts back, in the prepared copy, every call argument the caller gave as a value rather than as wire text: the
 * probe's form is for wire text only, and a value is what transformers would see.
 *
 * @example
 * keepNativeArguments(prepareForTemplate(messages, { argumentsForm: "string" }), messages);
 */
export function keepNativeArguments(prepared: unknown[], original: readonly unknown[]): unknown[] {
  return prepared.map((message, i) => {
    const calls = callsOf(original[i]);
    if (calls === undefined || calls.every((call) => typeof functionOf(call)?.arguments === "string"))
      return message;
    const copies = callsOf(message) as unknown[];
    return {
      ...(message as object),
      tool_calls: copies.map((copy, j) => {
        const given = functionOf(calls[j]);
        const fn = functionOf(copy);
        if (given === undefined || fn === undefined || typeof given.arguments === "string") return copy;
        return { ...(copy as object), function: { ...fn, arguments: given.arguments } };
      }),
    };
  });
}
