import { type SanitizeChange, type SanitizeOptions, sanitizeHistory } from "@toolcall/core";
import { isPlainObject } from "@toolcall/core/kit";
import type { ModelMessage } from "ai";
import type { MessageForm } from "./fresh-from-neutral.js";
import { fromNeutralEntries } from "./from-neutral-messages.js";
import { AI_SDK_ORIGIN, AI_SDK_PART, getTag } from "./origin.js";
import { toNeutralEntries } from "./to-neutral-messages.js";

/** Options of {@link sanitizeModelMessages}: core's R4 options (`policy`, `missingResult`, `repairs`, `syntheticResult`). */
export type SanitizeModelMessagesOptions = SanitizeOptions;

/** What `sanitizeModelMessages` returns: the history a strict provider accepts and every change made. */
export interface SanitizeModelMessagesResult<M = ModelMessage> {
  /** The history a strict provider accepts: the input array itself when nothing needed fixing. */
  messages: M[];
  /**
   * Every change, with the values it replaced (in the neutral view: `before`/`after` are OpenAI-shaped);
   * `messageIndex` is the index of the AI SDK message in the input.
   */
  changes: SanitizeChange[];
}

/** A copy of a change's value without this package's tags (they lead back to the input; a change is a record). */
function untagged(value: unknown, depth = 0): unknown {
  if (depth > 3 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => untagged(item, depth + 1));
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = untagged(value[key], depth + 1);
  return copy;
}

function hasTags(value: unknown): boolean {
  return getTag(value, AI_SDK_ORIGIN) !== undefined || getTag(value, AI_SDK_PART) !== undefined;
}

/** R4 over AI SDK messages of either form, through the neutral view; shared by the middleware and the UI sanitizer. */
export function sanitizeAiSdkMessages<M>(
  messages: readonly M[],
  options: SanitizeOptions,
  form: MessageForm,
): SanitizeModelMessagesResult<M> {
  if (!Array.isArray(messages)) return { messages: messages as unknown as M[], changes: [] };
  const owners: number[] = [];
  const entries: unknown[] = [];
  messages.forEach((message, index) => {
    for (const entry of toNeutralEntries([message], { enumerable: true, sanitizer: true })) {
      entries.push(entry);
      owners.push(index);
    }
  });
  const result = sanitizeHistory(entries, options);
  if (result.messages === entries) return { messages: messages as M[], changes: [] };
  return {
    messages: fromNeutralEntries(result.messages, form) as M[],
    changes: untaggedChanges(result.changes, owners),
  };
}

/** Changes indexed by input message (`owners`: the input index of each neutral entry), their values untagged. */
export function untaggedChanges(
  changes: readonly SanitizeChange[],
  owners: readonly number[],
): SanitizeChange[] {
  return changes.map((change) => {
    const mapped: SanitizeChange = {
      ...change,
      messageIndex: owners[change.messageIndex] ?? change.messageIndex,
    };
    if ("before" in change) mapped.before = cleaned(change.before);
    if ("after" in change) mapped.after = cleaned(change.after);
    return mapped;
  });
}

/** A change's value without tags; a value that cannot be read is kept as it is. */
function cleaned(value: unknown): unknown {
  try {
    return hasTagsDeep(value) ? untagged(value) : value;
  } catch {
    return value;
  }
}

function hasTagsDeep(value: unknown): boolean {
  if (hasTags(value)) return true;
  if (Array.isArray(value)) return value.some(hasTags);
  return isPlainObject(value) && Array.isArray(value.tool_calls) && value.tool_calls.some(hasTags);
}

/**
 * Sanitizes an AI SDK history for strict providers with core's R4 (session poisoning), before it is passed to
 * `generateText`/`streamText` or saved: every call's input becomes a JSON object (`""` → `{}`, a repaired call's
 * object, anything else the raw sentinel `{ _raw_arguments: … }` under the default `preserve` policy, so nothing the
 * model wrote is lost), every result answers a call of its turn (orphans dropped, a missing result synthesized as a
 * tool result: the AI SDK itself refuses a history with a missing result, `MissingToolResultsError`), and empty
 * assistant turns go.
 *
 * The input is never mutated. Messages that need nothing are returned as the same objects (the input array itself
 * when nothing changed); a changed message keeps every part and option the neutral view does not hold. Idempotent.
 *
 * @example
 * const { messages, changes } = sanitizeModelMessages(savedMessages, { repairs: coreRepairs });
 * await generateText({ model, messages, tools });
 */
export function sanitizeModelMessages(
  messages: readonly ModelMessage[],
  options: SanitizeModelMessagesOptions = {},
): SanitizeModelMessagesResult {
  return sanitizeAiSdkMessages(messages, options, "messages");
}
