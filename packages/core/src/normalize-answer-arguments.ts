import { setOwn } from "./define-property.js";
import { EMPTY_LIST } from "./empty-list.js";
import { isRawSentinel } from "./encode-arguments.js";
import {
  type NormalizeArgumentsOptions,
  type NormalizedArguments,
  normalizeArguments,
  normalizeArgumentsSteps,
} from "./normalize-arguments.js";
import { splitMergedArguments } from "./split-merged-arguments.js";
import { type ArgumentsMapping, isDecodedToObject, RAW_ARGUMENTS_KEY } from "./types.js";

/** What {@link normalizeAnswerArguments} takes: everything `normalizeArguments` does but a policy (there is none). */
export type NormalizeAnswerOptions = Omit<NormalizeArgumentsOptions, "policy">;

/** What `normalizeAnswerArguments` returns: the normalized wire text plus whether a tool can run on it. */
export interface NormalizedAnswerArguments extends NormalizedArguments {
  /**
   * Whether a tool can run on the call: its arguments decode to an object (statuses `object`, `absent`, `empty`,
   * `null_literal`, `double_encoded`, `repaired`) that is not a raw sentinel left by an earlier stage.
   */
  usable: boolean;
  /**
   * When the call is not usable because its text holds several calls merged (`{"a":1}{"b":2}`: distinct complete
   * objects back to back), the arguments of each, in order: the answer holds one call per entry (the first keeps the
   * call's id, the others get fresh ones). Absent otherwise; see `splitMergedArguments` for where a split is refused.
   */
  split?: string[];
}

/**
 * The arguments text a tool call gets in a fresh answer (a response or stream coming back from a model), as opposed
 * to a history going out (R4). Valid object text keeps its bytes; text that decodes to an object (`""`, `"null"`,
 * double-encoded, repaired by an enabled R6 rule) becomes canonical compact JSON, numbers kept; anything else
 * (`invalid`, `truncated`, `non_object`, `native_non_object`) keeps the model's own text, unchanged, and is
 * `usable: false`. After a length stop, a call with no argument text (`""`, absent) was cut before its arguments:
 * `truncated` too, never `{}`. A fresh answer never turns an unusable call into one that parses: no raw sentinel, no `{}`, so
 * every client's own handling of malformed arguments (LangChain's `invalid_tool_calls`, the AI SDK's invalid tool
 * call, the openai SDK's `JSON.parse`) sees it for what it is. When the call is sent back in a history, R4 makes it
 * acceptable to strict providers (`sanitizeHistory`).
 *
 * @example
 * normalizeAnswerArguments('{"city": "Paris"}'); // { text: '{"city": "Paris"}', changed: false, usable: true, … }
 * normalizeAnswerArguments("```json\n{\"a\":1}\n```", { repairs: coreRepairs }); // { text: '{"a":1}', changed: true, usable: true, … }
 * normalizeAnswerArguments('{"city": "Par', { finishReason: "length" });
 * // { text: '{"city": "Par', changed: false, usable: false, decoded: { status: "truncated", … } }
 */
export function normalizeAnswerArguments(
  value: unknown,
  options: NormalizeAnswerOptions = {},
): NormalizedAnswerArguments {
  if (cutBefore(value, options))
    return { text: value, decoded: cutBeforeArguments(value), changed: false, usable: false };
  return withSplit(value, answerOf(normalizeArguments(value, keepOptions(options))), options);
}

/**
 * {@link normalizeAnswerArguments} in steps, for a server that repairs a large answer between other requests: the
 * steps of {@link normalizeArgumentsSteps}, so no step runs more than one repair rule over the call's text. The
 * result is the one `normalizeAnswerArguments` gives.
 *
 * @example
 * const steps = normalizeAnswerArgumentsSteps("```json\n{\"a\":1}\n```", { repairs: coreRepairs });
 * let next = steps.next();
 * while (!next.done) next = steps.next(); // other work may run between steps
 * next.value.text; // '{"a":1}'
 */
export function* normalizeAnswerArgumentsSteps(
  value: unknown,
  options: NormalizeAnswerOptions = {},
): Generator<void, NormalizedAnswerArguments, void> {
  if (cutBefore(value, options))
    return { text: value, decoded: cutBeforeArguments(value), changed: false, usable: false };
  return withSplit(value, answerOf(yield* normalizeArgumentsSteps(value, keepOptions(options))), options);
}

/** An unusable call whose text holds merged calls gets their arguments in `split`. */
function withSplit(
  value: unknown,
  answer: NormalizedAnswerArguments,
  options: NormalizeAnswerOptions,
): NormalizedAnswerArguments {
  if (answer.usable || answer.decoded.status !== "invalid") return answer;
  const split = splitMergedArguments(value, { finishReason: options.finishReason });
  return split === undefined ? answer : { ...answer, split };
}

/** After a length stop, a call with no argument text was cut before its arguments. */
function cutBefore(value: unknown, options: NormalizeAnswerOptions): boolean {
  return options.finishReason === "length" && (value === undefined || value === null || isBlank(value));
}

function keepOptions(options: NormalizeAnswerOptions): NormalizeArgumentsOptions {
  return {
    repairs: options.repairs,
    finishReason: options.finishReason,
    maxDepth: options.maxDepth,
    schema: options.schema,
    policy: "keep",
  };
}

function answerOf(normalized: NormalizedArguments): NormalizedAnswerArguments {
  const usable = isDecodedToObject(normalized.decoded.status) && !isRawSentinel(normalized.decoded.arguments);
  return { text: normalized.text, decoded: normalized.decoded, changed: normalized.changed, usable };
}

function isBlank(value: unknown): boolean {
  return typeof value === "string" && value.trim() === "";
}

/** The decode of a call a length stop cut before any argument text: `truncated`, the raw sentinel of what there was. */
function cutBeforeArguments(value: unknown): NormalizedArguments["decoded"] {
  const mapping: ArgumentsMapping = {};
  setOwn(mapping, RAW_ARGUMENTS_KEY, value ?? "");
  return {
    arguments: mapping,
    status: "truncated",
    repairs: EMPTY_LIST,
    raw: value,
    error: "no argument text before the length stop",
  };
}
