import type { WorkMeter } from "@toolcall/core/kit";

/** Why part of the model's text was read the way it was. Codes are stable. */
export type QwenIssueCode =
  | "qwen_call_truncated"
  | "qwen_call_invalid"
  | "qwen_tool_call_unclosed"
  | "qwen_parameter_unclosed"
  | "qwen_unknown_tool"
  | "qwen_unknown_parameter"
  | "qwen_parameter_type_mismatch"
  | "qwen_budget_exhausted";

/** One finding of the parser. */
export interface QwenIssue {
  code: QwenIssueCode;
  severity: "error" | "warning" | "info";
  message: string;
  /** The tool name and parameter concerned, where there is one. */
  tool?: string;
  parameter?: string;
  /** For calls left in content: the text, exactly as the model wrote it. */
  raw?: string;
}

/** An OpenAI-shaped tool call read from Qwen's XML syntax (arguments as JSON text, Python `json.dumps` bytes). */
export interface QwenToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** Options of the parser, whole or streamed. */
export interface QwenParseOptions {
  /** The tools offered to the model (OpenAI `{ type, function: { name, parameters } }` or bare `{ name, parameters }`). */
  tools?: readonly unknown[] | null;
  /** Makes the id of each call (default: `call_` and 24 random letters and digits). */
  createId?: () => string;
  /**
   * The work meter the parser charges. Default: a limit linear in the text (`linearWorkLimit`; a stream's own meter
   * grows by `WORK_UNITS_PER_CHAR` units per character pushed); a caller's meter keeps the caller's limit. Once it
   * runs out, the rest of the text is content, unread, with a `qwen_budget_exhausted` issue.
   */
  meter?: WorkMeter;
}

/** A random OpenAI-style call id: core's, the one every recovered call gets by default. */
export { randomCallId } from "@toolcall/core/kit";
