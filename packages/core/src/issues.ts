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

export type IssueSeverity = "error" | "warning" | "info";

/** One finding about a tool call or a history: a union member keyed on `code`, with where it was found. */
export interface Issue {
  code: IssueCode;
  severity: IssueSeverity;
  /** Keys from the validated value to the offending part (`["function", "arguments"]`, `[3, "tool_calls", 0]`). */
  path: Array<string | number>;
  message: string;
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
