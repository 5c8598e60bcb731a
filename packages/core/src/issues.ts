/** Stable issue codes (RULES.md R3, plus the history-level and whole-message codes of `validateHistory`). */
export type IssueCode =
  | "name_missing"
  | "name_invalid"
  | "arguments_empty"
  | "arguments_absent"
  | "arguments_invalid_json"
  | "arguments_not_object"
  | "arguments_truncated"
  | "arguments_raw_sentinel"
  | "id_missing"
  | "id_duplicate"
  | "unknown_tool"
  | "arguments_schema"
  | "tool_result_orphan"
  | "tool_result_missing"
  | "tool_result_pending"
  | "message_invalid"
  | "role_missing"
  | "role_unknown"
  | "content_missing"
  | "content_invalid"
  | "content_part_unknown"
  | "tool_calls_invalid"
  | "tool_call_id_missing"
  | "message_name_invalid";

/** How serious an `Issue` is: `error` (a provider or template refuses it), `warning` (it runs, but something is off), `info`. */
export type IssueSeverity = "error" | "warning" | "info";

/**
 * One finding, in the one shape every package reports: a stable snake_case `code`, how serious it is, a sentence for
 * people, and where it was found. `Code` narrows the codes a producer can emit (core's R3 codes by default; a syntax
 * parser, a record format or the proxy names its own union), so a consumer can `switch` on `code` exhaustively.
 *
 * @example
 * import type { Issue } from "@toolcall/core";
 *
 * type ParseCode = "call_unclosed" | "arguments_invalid";
 * const found: Issue<ParseCode> = { code: "call_unclosed", severity: "error", message: "no </tool_call>", path: [0] };
 */
export interface Issue<Code extends string = IssueCode> {
  code: Code;
  severity: IssueSeverity;
  /** A sentence for people; never parsed. */
  message: string;
  /**
   * Keys from the checked value to the offending part (`["function", "arguments"]`, `[3, "tool_calls", 0]`); for text,
   * the character offset (`[120]`); `[]` for the whole value.
   */
  path: Array<string | number>;
}

/** The severity each code always has. */
export const ISSUE_SEVERITY: Readonly<Record<IssueCode, IssueSeverity>> = {
  name_missing: "error",
  name_invalid: "warning",
  arguments_empty: "error",
  arguments_absent: "info",
  arguments_invalid_json: "error",
  arguments_not_object: "error",
  arguments_truncated: "error",
  arguments_raw_sentinel: "warning",
  id_missing: "error",
  id_duplicate: "error",
  unknown_tool: "error",
  arguments_schema: "error",
  tool_result_orphan: "error",
  tool_result_missing: "error",
  tool_result_pending: "warning",
  message_invalid: "error",
  role_missing: "error",
  role_unknown: "error",
  content_missing: "error",
  content_invalid: "error",
  content_part_unknown: "warning",
  tool_calls_invalid: "error",
  tool_call_id_missing: "error",
  message_name_invalid: "warning",
};

export function issue(code: IssueCode, path: Array<string | number>, message: string): Issue {
  return { code, severity: ISSUE_SEVERITY[code], path, message };
}
