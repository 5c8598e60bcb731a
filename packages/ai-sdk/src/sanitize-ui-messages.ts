import { type SanitizeChange, type SanitizeOptions, sanitizeHistory } from "@toolcall/core";
import type { UIMessage } from "ai";
import { fromUiNeutralEntries } from "./from-ui-neutral.js";
import { untaggedChanges } from "./sanitize-model-messages.js";
import { uiNeutralView } from "./ui-neutral-view.js";

/** Options of {@link sanitizeUIMessages}: core's R4 options (`policy`, `missingResult`, `repairs`, `syntheticResult`). */
export type SanitizeUIMessagesOptions = SanitizeOptions;

/** What `sanitizeUIMessages` returns: the UI history a strict provider accepts and every change made. */
export interface SanitizeUIMessagesResult<M> {
  /** The history: the input array itself when nothing needed fixing; unchanged messages are the same objects. */
  messages: M[];
  /** Every change (values in the neutral view); `messageIndex` is the index of the UI message in the input. */
  changes: SanitizeChange[];
}

/**
 * Sanitizes a persisted `useChat` history (UIMessages, with tool parts in every state) with core's R4, so a saved
 * chat that a strict provider (or the AI SDK itself) refuses loads and replays. Read as `convertToModelMessages`
 * sends it: a call's input (or, for a call the SDK could not parse, its `rawInput`) becomes a JSON object, repaired
 * when a named repair can, else kept under `_raw_arguments`; a part still `input-streaming` (a stream cut mid-call)
 * is decoded as after a length stop and never completed; a call that got no result (the tab closed, the stream
 * stopped, an approval never answered) ends as an `output-error` part with R4's synthetic result text, so the SDK's
 * `MissingToolResultsError` and the provider's pairing errors are gone. Calls still waiting in the last message (a
 * client-side tool or an approval the user can still answer) are left alone: sanitize again once a new message
 * follows them. Calls a provider ran are the provider's and are left as they are.
 *
 * Never mutates its input; messages that need nothing are the same objects; idempotent.
 *
 * @example
 * const { messages } = sanitizeUIMessages(await loadChat(id), { repairs: coreRepairs });
 * const result = streamText({ model, messages: await convertToModelMessages(messages), tools });
 */
export function sanitizeUIMessages<M extends UIMessage>(
  messages: readonly M[],
  options: SanitizeUIMessagesOptions = {},
): SanitizeUIMessagesResult<M> {
  if (!Array.isArray(messages)) return { messages: messages as unknown as M[], changes: [] };
  const { entries, owners } = uiNeutralView(messages);
  const result = sanitizeHistory(entries, options);
  if (result.messages === entries) return { messages: messages as M[], changes: [] };
  return {
    messages: fromUiNeutralEntries({ messages, entries: result.messages }),
    changes: untaggedChanges(result.changes, owners),
  };
}
