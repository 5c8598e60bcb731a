import type { ProviderChangeRule } from "./providers/fix-context.js";
import type { ProviderOption } from "./providers/provider-profiles.js";
import type { RepairRule } from "./repairs/repair-rule.js";
import type { DecodeStatus } from "./types.js";

/** What happens to a call whose arguments cannot be decoded to an object. */
export type SanitizePolicy = "preserve" | "drop" | "empty";

/** What `sanitizeHistory` takes (R4): the policy for undecodable calls, what to do with calls that have no result, the provider, repairs. */
export interface SanitizeOptions {
  /** `preserve` (default): `{"_raw_arguments": raw}` text. `drop`: the call and its results go. `empty`: `"{}"` and a note on its result. */
  policy?: SanitizePolicy;
  /** A call with no result: `synthesize` (default) a tool result, or `drop-call`. */
  missingResult?: "synthesize" | "drop-call";
  /**
   * Calls of the last assistant turn that have no result yet, with nothing but tool results after them (a session
   * saved while its tools ran): `keep` leaves them as they are; `synthesize` and `drop-call` treat them as
   * `missingResult` does. Default: what `missingResult` says.
   */
  pendingCalls?: "synthesize" | "drop-call" | "keep";
  /** Repairs (R6) tried on arguments that fail strict JSON. */
  repairs?: readonly RepairRule[];
  /**
   * A call whose arguments are two or more distinct complete objects back to back (`{"a":1}{"b":2}`: calls a
   * stream or a gateway merged) becomes one call per object (`call_split`); the first keeps the id and the results,
   * the others get fresh ids (`<id>_<n>`) and what `missingResult` says. Default `true`; `false` keeps the merged
   * call, which `policy` then decides. See `splitMergedArguments` for where a split is refused.
   */
  splitMergedCalls?: boolean;
  /**
   * The tools the history's calls were made against (OpenAI's `{ type: "function", function: { name, parameters } }`
   * or `{ name, parameters }`). Given, a mangled name that names exactly one of them (`functions.get_weather`,
   * `get_weather<|channel|>commentary`, GLM's arguments in the name) is mapped back (`call_name_repaired`), and each
   * call's arguments are typed by its tool's schema, lossless conversions only (`schemaTypedArguments`).
   */
  tools?: readonly unknown[];
  /** Content of a synthesized tool result. */
  syntheticResult?: string;
  /**
   * A provider profile (`"mistral"`, `"anthropic"` …, or a profile object): after R4, the fixes of that provider's
   * constraints too, so the history is one that provider accepts (see `listProviderProfiles`).
   */
  provider?: ProviderOption;
}

/** Stable names of the changes sanitize makes. */
export type SanitizeRule =
  | "arguments_canonicalized"
  | "arguments_raw_preserved"
  | "arguments_emptied"
  | "call_dropped"
  | "call_dropped_no_name"
  | "call_dropped_missing_result"
  | "call_id_assigned"
  | "call_id_renamed"
  | "call_split"
  | "call_name_repaired"
  | "result_dropped_with_call"
  | "result_dropped_orphan"
  | "result_dropped_duplicate"
  | "result_note_prepended"
  | "result_synthesized"
  | "message_removed_empty"
  | "tool_calls_removed_empty"
  | ProviderChangeRule;

/** One change: where, which rule, and the values before and after, so nothing is lost. */
export interface SanitizeChange {
  rule: SanitizeRule;
  /** Index of the message in the input (for a synthesized result: the assistant message it answers). */
  messageIndex: number;
  toolCallId?: string;
  before?: unknown;
  after?: unknown;
  /** For argument changes: what decoding found (R1), and the repairs (R6) that made it an object. */
  status?: DecodeStatus;
  repairs?: readonly string[];
  /** For a provider's fix: the profile constraint it answers (`tool_call_id_invalid` …). */
  constraint?: string;
}

/** What `sanitizeHistory` returns: the history a strict provider accepts (the input itself when nothing changed) and each change made. */
export interface SanitizeResult<M> {
  /** The history a strict provider accepts; the input array itself when nothing changed. */
  messages: M[];
  changes: SanitizeChange[];
}

/** The content of a synthesized tool result, unless `syntheticResult` says otherwise. */
export const DEFAULT_SYNTHETIC_RESULT = "[no result was recorded for this tool call]";
