import { isPlainObject } from "../define-property.js";
import { compactLongLists, isArraySafe, Unreadable } from "../read-history.js";
import type { SanitizeChange, SanitizeOptions, SanitizeResult } from "../sanitize-options.js";
import { fixNames, fixReasoningItems, fixThoughtSignatures, fixToolCallIds } from "./fix-calls.js";
import { type Fix, type FixContext, ORIGIN, type ProviderChange } from "./fix-context.js";
import {
  fixAssistantContent,
  fixBlankText,
  fixFunctionCallPosition,
  fixInterleaved,
  fixReasoningMissing,
  fixReasoningOrphans,
  fixReasoningRejected,
  fixTextBesideCalls,
  fixUserAfterTool,
} from "./fix-messages.js";
import type { ConstraintCode, ProviderProfile } from "./provider-profile.js";
import { type ProviderOption, resolveProviderProfile } from "./provider-profiles.js";
import { readableMessage } from "./readable-message.js";

/** The fix of each code that core's R4 does not already make, in the order they run. */
const FIXES: ReadonlyArray<[ConstraintCode, Fix]> = [
  ["reasoning_rejected", fixReasoningRejected],
  ["reasoning_missing", fixReasoningMissing],
  ["assistant_content_not_string", fixAssistantContent],
  ["text_beside_calls", fixTextBesideCalls],
  ["tool_call_id_invalid", fixToolCallIds],
  ["name_invalid", fixNames],
  ["thought_signature_missing", fixThoughtSignatures],
  ["reasoning_item_missing", fixReasoningItems],
  ["reasoning_item_orphan", fixReasoningOrphans],
  ["tool_results_interleaved", fixInterleaved],
  ["user_after_tool", fixUserAfterTool],
  ["function_call_position", fixFunctionCallPosition],
];

/** Rounds of R4 and the profile's fixes; a round that changes nothing ends it (two rounds are the usual). */
const MAX_ROUNDS = 5;

type CoreSanitize = (messages: readonly unknown[], options: SanitizeOptions) => SanitizeResult<unknown>;

function applyFixes(messages: readonly unknown[], profile: ProviderProfile, context: FixContext): unknown[] {
  let current = messages as unknown[];
  for (const [code, fix] of FIXES) {
    const constraint = profile.constraints.find((c) => c.code === code);
    if (constraint !== undefined) current = fix(current, constraint, context);
    if (code === "tool_results_interleaved") {
      const blank = profile.constraints.filter(
        (c) => c.code === "text_content_empty" || c.code === "text_content_whitespace",
      );
      if (blank.length > 0) current = fixBlankText(current, blank, context);
    }
  }
  return current;
}

/**
 * `sanitizeHistory(messages, { provider })`: core's R4, then the fixes of the provider's constraints, in rounds
 * until a round changes nothing. Each input message carries its index through core's copies (a symbol key, taken
 * off at the end), so every change names the input message it concerns; messages nothing touched come back as the
 * input objects, and a history that needs nothing comes back as the input array.
 */
export function sanitizeForProvider(
  messages: readonly unknown[],
  options: SanitizeOptions & { provider: ProviderOption },
  core: CoreSanitize,
): SanitizeResult<unknown> {
  const profile = resolveProviderProfile(options.provider);
  const { provider: _, ...coreOptions } = options;
  if (!isArraySafe(messages)) return core(messages, coreOptions);
  // A list too long to walk index by index is read by what it holds; changes name the caller's message again.
  const compact = compactLongLists(messages);
  if (compact !== undefined) {
    const result = sanitizeForProvider(compact.list, options, core);
    if (result.changes.length === 0) return { messages: messages as unknown[], changes: [] };
    return {
      messages: result.messages,
      changes: result.changes.map((change) => ({
        ...change,
        messageIndex: compact.indices[change.messageIndex] ?? change.messageIndex,
      })),
    };
  }
  const copies = new Map<unknown, number>();
  let current: unknown[];
  try {
    current = messages.map((message, index) => {
      if (!isPlainObject(message)) return message;
      const copy = readableMessage(message);
      // A message that cannot be read is no message to fix: an entry that is no object, the caller's again at the end.
      const entry = copy === undefined ? new Unreadable(message) : Object.assign(copy, { [ORIGIN]: index });
      copies.set(entry, index);
      return entry;
    });
  } catch {
    // A list whose entries cannot be read (a proxy that throws): core's R4 reads what it can, no provider fix runs.
    return core(messages, coreOptions);
  }
  const origin = (message: unknown) => {
    const value = isPlainObject(message) ? (message as Record<symbol, unknown>)[ORIGIN] : undefined;
    return typeof value === "number" ? value : -1;
  };
  const untag = (value: unknown): unknown => {
    const index = copies.get(value);
    if (index !== undefined) return messages[index];
    if (!isPlainObject(value) || !Object.hasOwn(value, ORIGIN)) return value;
    const { [ORIGIN]: _origin, ...rest } = value as Record<string | symbol, unknown>;
    return rest;
  };
  const changes: Array<SanitizeChange | ProviderChange> = [];
  const context: FixContext = {
    origin,
    tagged: (message, index) => ({ ...message, [ORIGIN]: index }),
    record: (change) => changes.push({ ...change, before: untag(change.before) }),
  };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const before = changes.length;
    const result = core(current, coreOptions);
    for (const change of result.changes) {
      const index = origin(current[change.messageIndex]);
      changes.push({
        ...change,
        messageIndex: index === -1 ? change.messageIndex : index,
        before: untag(change.before),
        after: untag(change.after),
      });
    }
    // Results core made up carry the index of the assistant message they answer.
    const made = new Map(
      result.changes
        .filter((c) => c.rule === "result_synthesized")
        .map((c) => [c.after, origin(current[c.messageIndex])] as const),
    );
    const tagged = made.size === 0 ? result.messages : result.messages.map((m) => retag(m, made));
    current = applyFixes(tagged, profile, context);
    if (changes.length === before) break;
  }
  if (changes.length === 0) return { messages: messages as unknown[], changes: [] };
  return { messages: current.map(untag), changes: changes as SanitizeChange[] };
}

function retag(message: unknown, made: ReadonlyMap<unknown, number>): unknown {
  const index = made.get(message);
  return index === undefined ? message : { ...(message as object), [ORIGIN]: index };
}
