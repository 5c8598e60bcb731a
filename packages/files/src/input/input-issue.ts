/**
 * Codes for what the command line finds about the input itself, before any rule of core applies. `input_*` codes
 * concern a whole file (nothing in it can be checked or repaired: exit 2); `line_*` and `record_*` codes concern one
 * JSONL line or record (reported with its place and passed through unchanged by `repair`).
 */
export type InputIssueCode =
  | "input_unreadable"
  | "input_not_json"
  | "input_format_unknown"
  | "input_invalid_utf8"
  | "input_too_large"
  | "input_not_rewritable"
  | "line_invalid_json"
  | "line_invalid_utf8"
  | "line_format_unknown"
  | "line_too_long"
  | "line_not_rewritable"
  | "record_not_rewritable";

/**
 * Every {@link InputIssueCode}, in documentation order.
 *
 * @example
 * INPUT_ISSUE_CODES.includes("line_invalid_json"); // true
 */
export const INPUT_ISSUE_CODES: readonly InputIssueCode[] = [
  "input_unreadable",
  "input_not_json",
  "input_format_unknown",
  "input_invalid_utf8",
  "input_too_large",
  "input_not_rewritable",
  "line_invalid_json",
  "line_invalid_utf8",
  "line_format_unknown",
  "line_too_long",
  "line_not_rewritable",
  "record_not_rewritable",
];

/**
 * A finding about the input: its code, and a message saying what was found.
 *
 * @example
 * const issue: InputIssue = { code: "line_invalid_json", message: "Unexpected end of JSON input" };
 */
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
    case "input_format_unknown":
      return "the input is JSON in no known format (toolcall formats lists them; --format names one)";
    case "input_invalid_utf8":
      return "a JSON document holds bytes that are not UTF-8";
    case "input_too_large":
      return "a JSON document too large to parse whole: give it as JSONL";
    case "input_not_rewritable":
      return "a repaired session could not be written back (nothing is written)";
    case "line_invalid_json":
      return "a JSONL line is not JSON";
    case "line_invalid_utf8":
      return "a JSONL line holds bytes that are not UTF-8";
    case "line_format_unknown":
      return "a JSONL line (or array element) is JSON in no known format";
    case "line_too_long":
      return "a JSONL line is longer than --max-line-bytes";
    case "line_not_rewritable":
      return "a repaired conversation could not be written back (it is passed through unchanged)";
    case "record_not_rewritable":
      return "the record's format cannot hold a repair (it is kept as it was, its issues stand)";
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
