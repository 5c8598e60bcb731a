/**
 * The neutral message shape: OpenAI Chat Completions JSON as plain objects, which every stack already speaks.
 * Fields are typed loosely (`unknown`) where models and servers are known to send anything.
 */

/** What decoding found. Every entry point reports it; none is silent. */
export type DecodeStatus =
  | "object"
  | "absent"
  | "empty"
  | "null_literal"
  | "double_encoded"
  | "non_object"
  | "invalid"
  | "truncated"
  | "native_non_object"
  | "repaired";

/** Every {@link DecodeStatus}, in documentation order. */
export const DECODE_STATUSES: readonly DecodeStatus[] = [
  "object",
  "absent",
  "empty",
  "null_literal",
  "double_encoded",
  "non_object",
  "invalid",
  "truncated",
  "native_non_object",
  "repaired",
];

/** Statuses whose arguments are a real mapping (not a raw sentinel). */
export function isDecodedToObject(status: DecodeStatus): boolean {
  switch (status) {
    case "object":
    case "absent":
    case "empty":
    case "null_literal":
    case "double_encoded":
    case "repaired":
      return true;
    case "non_object":
    case "invalid":
    case "truncated":
    case "native_non_object":
      return false;
    default: {
      const never: never = status;
      return never;
    }
  }
}

/** A JSON-like mapping of argument names to values. */
export type ArgumentsMapping = Record<string, unknown>;

/** The reserved key of the raw sentinel `{ _raw_arguments: X }`. */
export const RAW_ARGUMENTS_KEY = "_raw_arguments";

/** An OpenAI-shaped function call. */
export interface ToolCallFunction {
  name?: unknown;
  arguments?: unknown;
  [key: string]: unknown;
}

/** An OpenAI-shaped tool call (`type` is `"function"` for function calls). */
export interface ToolCall {
  id?: unknown;
  type?: unknown;
  function?: ToolCallFunction;
  /**
   * Provider data that travels with the call, by provider (provider profiles read these):
   * `extra_content.google.thought_signature` (a Gemini 3 call's signature, where Gemini's OpenAI-compatible
   * endpoint puts it) and `extra_content.openai.item_id` (a Responses API `function_call` item's id, `fc_…`).
   */
  extra_content?: unknown;
  [key: string]: unknown;
}

/** An OpenAI Chat Completions message. */
export interface ChatMessage {
  role?: unknown;
  content?: unknown;
  tool_calls?: unknown;
  tool_call_id?: unknown;
  /** An assistant message's reasoning text, as DeepSeek, Kimi, Qwen and vLLM send it (`reasoning` on some servers). */
  reasoning_content?: unknown;
  /**
   * Reasoning to replay with an assistant message, as OpenRouter names it: entries `{ type, id?, format, … }`; a
   * Responses API reasoning item is one with `format: "openai-responses-v1"` and its `rs_…` id.
   */
  reasoning_details?: unknown;
  [key: string]: unknown;
}

/** An OpenAI tool definition, or the bare `{ name, parameters }` many stacks use. */
export type ToolDefinition =
  | { type?: "function"; function: { name: string; parameters?: unknown; [key: string]: unknown } }
  | { name: string; parameters?: unknown; [key: string]: unknown };

/** Why generation stopped, as the OpenAI API names it; `length` makes broken text `truncated`. */
export type FinishReason =
  | "stop"
  | "length"
  | "tool_calls"
  | "content_filter"
  | "function_call"
  | (string & {});
