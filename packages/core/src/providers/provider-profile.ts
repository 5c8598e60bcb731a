/**
 * Provider profiles: what one strict provider rejects in a replayed history, as data. Each constraint names a check
 * (its `code`, one of {@link ConstraintCode}), the literal error text the provider answers with, the HTTP status,
 * and the fix `sanitizeHistory({ provider })` applies. The checks themselves are small pure functions over core's
 * neutral view (OpenAI-shaped `ChatMessage`s), one per code, shared by every profile that lists the code.
 */

/** The checks a profile can list. Each code means the same thing in every profile; only its parameters differ. */
export type ConstraintCode =
  | "tool_call_id_invalid"
  | "name_invalid"
  | "id_duplicate"
  | "tool_result_missing"
  | "tool_results_interleaved"
  | "tool_result_orphan"
  | "tool_result_id_missing"
  | "arguments_invalid_json"
  | "arguments_not_object"
  | "user_after_tool"
  | "function_call_position"
  | "reasoning_missing"
  | "reasoning_rejected"
  | "thought_signature_missing"
  | "reasoning_item_missing"
  | "reasoning_item_orphan"
  | "text_content_empty"
  | "text_content_whitespace"
  | "assistant_content_not_string"
  | "text_beside_calls";

/** Every {@link ConstraintCode}, in the order `sanitizeHistory` applies their fixes. */
export const CONSTRAINT_CODES: readonly ConstraintCode[] = [
  "reasoning_rejected",
  "reasoning_missing",
  "assistant_content_not_string",
  "text_beside_calls",
  "tool_call_id_invalid",
  "name_invalid",
  "thought_signature_missing",
  "reasoning_item_missing",
  "reasoning_item_orphan",
  "tool_results_interleaved",
  "text_content_empty",
  "text_content_whitespace",
  "user_after_tool",
  "function_call_position",
  "id_duplicate",
  "tool_result_missing",
  "tool_result_orphan",
  "tool_result_id_missing",
  "arguments_invalid_json",
  "arguments_not_object",
];

/**
 * How good the evidence for a constraint is. `documented`: the provider's docs or source code say so. `reported`:
 * the literal error text was seen in public reports (named in `sources`). `inferred`: neither could be checked; the
 * constraint and its text are our reading of related evidence, and are marked so.
 */
export type Evidence = "documented" | "reported" | "inferred";

/** How a provider numbers messages in its error texts (`{index}`), from core's neutral view. */
export type MessageIndexing =
  /** The index in the request's `messages` (OpenAI-compatible APIs keep system messages in the list). */
  | "messages"
  /**
   * Anthropic Messages and Bedrock Converse: system messages leave the list, and a run of messages of one role
   * (`tool` and `user` are both the user role) becomes one message; `{part}` is the content block in it.
   */
  | "merged-roles"
  /** Gemini `contents`: as `merged-roles`, with the model role for assistant turns. */
  | "contents"
  /** The Responses API `input` items: each call and each result is an item of its own. */
  | "items";

/** The parameters a check takes. Patterns are regular expression sources (JSON-portable, ECMAScript syntax). */
export interface ConstraintParams {
  /** `tool_call_id_invalid`, `name_invalid`: the pattern the whole value must match. */
  pattern?: string;
  /** `tool_call_id_invalid`, `name_invalid`: the longest value accepted. */
  maxLength?: number;
  /** `tool_call_id_invalid`: the server keeps only the last N characters of a longer id before checking it (vLLM). */
  keepLast?: number;
  /** `tool_call_id_invalid`: how a rejected id is remapped (see {@link IdStyle}). */
  idStyle?: IdStyle;
  /** `arguments_invalid_json`, `arguments_not_object`: `""` is accepted (read as `{}`). */
  allowEmpty?: boolean;
  /** `reasoning_rejected`: where rejected reasoning goes (see {@link ReasoningMove}). */
  reasoningMove?: ReasoningMove;
  /** `user_after_tool`, `function_call_position`: the content of the bridge message inserted. */
  bridgeContent?: string;
  /** `thought_signature_missing`: the signature given to an unsigned call (the validator-skip value Google documents). */
  signature?: string;
}

/**
 * How a rejected tool call id is remapped (always the same way for the same history, applied to the call and to its
 * results, and recorded so it can be reversed). `alnum9`: letters and digits only, the last nine (left-padded with
 * `0`), as Mistral demands. `replace-invalid`: each character the pattern refuses becomes `_` (Anthropic, Bedrock).
 * `shorten`: cut to `maxLength` with a hash suffix. A remapped id that collides with one in use is derived from a
 * hash of the original instead.
 */
export type IdStyle = "alnum9" | "replace-invalid" | "shorten";

/**
 * Where reasoning a provider refuses goes. `content-think`: into the message's content, wrapped in
 * `<think>…</think>` (kept in front of the model). `remove`: out of the message; the change record keeps it whole.
 */
export type ReasoningMove = "content-think" | "remove";

/** Values of the error body's fields besides the message (`type`, `code`, `param`), where the format has them. */
export interface ErrorFields {
  type?: string | null;
  code?: string | number | null;
  param?: string | null;
}

/** One thing a provider rejects. */
export interface ProviderConstraint {
  /** Stable snake_case code: which check this is. */
  code: ConstraintCode;
  /** What is rejected, in plain words. */
  summary: string;
  /**
   * The literal error text the provider answers with. Placeholders in braces are filled from the history:
   * `{index}` (the message, numbered as the provider numbers it), `{part}` (content block), `{call}` (call in its
   * message), `{position}`, `{id}`, `{ids}` (comma-separated), `{name}`, `{length}`, `{role}`, `{previous_role}`,
   * `{item_id}`, `{reasoning_id}`, `{json_error}` (our parser's words: the provider's own parser words it
   * differently). A value the history cannot tell is written `…`.
   */
  message: string;
  /**
   * The text instead of `message` when the message before the offending one has one of these roles (a provider that
   * words one rejection two ways, by where it is found).
   */
  messageAfter?: { roles: string[]; message: string };
  /** The HTTP status the provider answers with. */
  status: number;
  /** The error body's other fields for this constraint (over the profile's defaults). */
  error?: ErrorFields;
  /** Other literal texts seen for the same rejection (older versions, other routes). */
  variants?: string[];
  /** The check's parameters. */
  params?: ConstraintParams;
  /** What `sanitizeHistory({ provider })` does about it, in plain words. */
  fix: string;
  evidence: Evidence;
  /** Where the facts come from: issue threads (`owner/repo#N`), docs URLs, source files (`owner/repo:path@commit`). */
  sources: string[];
  /** What is known to be uncertain about this constraint. */
  note?: string;
}

/** What a profile was checked against, and when. */
export interface CheckedAgainst {
  /** The API and endpoint. */
  api: string;
  /** The models (or server versions) the facts were seen with. */
  models: string[];
  /** The day the facts were last checked (YYYY-MM-DD). */
  date: string;
  /** The main sources (each constraint names its own too). */
  sources: string[];
}

/**
 * The JSON body a provider answers an error with, as a template: a string value `"$message"`, `"$type"`,
 * `"$code"` or `"$param"` is replaced by that field (the constraint's, over the profile's defaults); `"$status"` by
 * the HTTP status (a number).
 */
export type ErrorBodyTemplate = unknown;

/** One provider (or one model family of a provider, where they differ): data plus the checks its codes name. */
export interface ProviderProfile {
  /** Stable kebab-case id: `mistral`, `deepseek-v4-thinking` … */
  id: string;
  /** A human name. */
  name: string;
  checkedAgainst: CheckedAgainst;
  /** How the provider numbers messages in its error texts. */
  indexing: MessageIndexing;
  /** The shape of the provider's error body. */
  errorBody: ErrorBodyTemplate;
  /** Defaults for the body's fields. */
  errorFields?: ErrorFields;
  /** Extra response headers the provider sends with an error (Bedrock's `x-amzn-errortype`). */
  errorHeaders?: Record<string, string>;
  /** What the profile does not cover, or where models of the provider differ. */
  note?: string;
  constraints: ProviderConstraint[];
}

/** A provider's rejection, found in a history: core's issue shape plus the provider, its status and its words. */
export interface ProviderIssue {
  code: ConstraintCode;
  severity: "error";
  /** Keys from the history to the offending part (`[3, "tool_calls", 0, "id"]`). */
  path: Array<string | number>;
  /** The literal error text the provider would answer with, filled in for this history. */
  message: string;
  /** The profile's id. */
  provider: string;
  /** The HTTP status the provider would answer with. */
  status: number;
  /** The JSON body the provider would answer with (its error format, this message). */
  body: unknown;
}
