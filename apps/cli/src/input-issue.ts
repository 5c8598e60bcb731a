/**
 * Codes for what the command line finds about the input itself, before any rule of core applies. `input_*` codes
 * concern a whole file (nothing in it can be checked or repaired: exit 2); `line_*` codes concern one JSONL line
 * (reported with its number and passed through unchanged by `repair`).
 */
export type InputIssueCode =
  | "input_unreadable"
  | "input_not_json"
  | "input_not_conversation"
  | "input_conversation_list"
  | "input_invalid_utf8"
  | "input_too_large"
  | "line_invalid_json"
  | "line_invalid_utf8"
  | "line_not_conversation"
  | "line_too_long"
  | "line_not_rewritable";

/** Every {@link InputIssueCode}, in documentation order. */
export const INPUT_ISSUE_CODES: readonly InputIssueCode[] = [
  "input_unreadable",
  "input_not_json",
  "input_not_conversation",
  "input_conversation_list",
  "input_invalid_utf8",
  "input_too_large",
  "line_invalid_json",
  "line_invalid_utf8",
  "line_not_conversation",
  "line_too_long",
  "line_not_rewritable",
];

/** A finding about the input: its code, and a message saying what was found. */
export interface InputIssue {
  code: InputIssueCode;
  message: string;
}

/**
 * What each code means, for help texts and the README.
 *
 * @example
 * describeInputIssue("line_invalid_utf8"); // "a JSONL line holds bytes that are not UTF-8"
 */
export function describeInputIssue(code: InputIssueCode): string {
  switch (code) {
    case "input_unreadable":
      return "the file cannot be read (missing, a directory, no permission)";
    case "input_not_json":
      return "the input is neither a JSON document nor JSONL";
    case "input_not_conversation":
      return "the input is JSON but holds no conversation";
    case "input_conversation_list":
      return "a JSON array of conversations: give it as JSONL, one conversation per line";
    case "input_invalid_utf8":
      return "a JSON document holds bytes that are not UTF-8";
    case "input_too_large":
      return "a JSON document too large to parse whole: give it as JSONL";
    case "line_invalid_json":
      return "a JSONL line is not JSON";
    case "line_invalid_utf8":
      return "a JSONL line holds bytes that are not UTF-8";
    case "line_not_conversation":
      return "a JSONL line is JSON but not a conversation";
    case "line_too_long":
      return "a JSONL line is longer than --max-line-bytes";
    case "line_not_rewritable":
      return "a repaired conversation could not be written back (it is passed through unchanged)";
    default: {
      const never: never = code;
      return never;
    }
  }
}

/**
 * True for codes about a whole file: nothing in it was checked or repaired, and the command exits 2.
 *
 * @example
 * isFileLevel("input_not_json"); // true
 * isFileLevel("line_invalid_json"); // false
 */
export function isFileLevel(code: InputIssueCode): boolean {
  return code.startsWith("input_");
}
