import type { SanitizeChange } from "../sanitize-options.js";

/**
 * The call ids a provider's fix remapped, both ways, read from `sanitizeHistory`'s changes: to send the provider's
 * answers back under the ids the history had (`fromProvider`), or to find a call again (`toProvider`).
 *
 * @example
 * const { messages, changes } = sanitizeHistory(history, { provider: "mistral" });
 * const { fromProvider } = callIdMapping(changes);
 * fromProvider.get("3nlnrrJha"); // "call_PTLP8xhu3uwZk4l3nlnrrJha"
 */
export function callIdMapping(changes: readonly SanitizeChange[]): {
  toProvider: Map<string, string>;
  fromProvider: Map<string, string>;
} {
  const toProvider = new Map<string, string>();
  const fromProvider = new Map<string, string>();
  for (const change of changes) {
    if (change.rule !== "call_id_remapped") continue;
    if (typeof change.before !== "string" || typeof change.after !== "string") continue;
    toProvider.set(change.before, change.after);
    fromProvider.set(change.after, change.before);
  }
  return { toProvider, fromProvider };
}
