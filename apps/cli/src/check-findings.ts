import type { Issue, IssueSeverity } from "@toolcall/core";
import { callIdAt } from "./places.js";

/** One issue with its place: core's R3 codes, or the command line's `input_*`/`line_*` codes. */
export interface CheckIssue {
  code: string;
  severity: IssueSeverity;
  message: string;
  /** Core's path, message index first. */
  path?: Array<string | number>;
  messageIndex?: number;
  callId?: string;
}

/** What a strict provider does with a conversation: accepts it, rejects it (HTTP 400), or it could not be read. */
export type Verdict = "accepted" | "rejected" | "unreadable";

/** A conversation (or a line, or a file) with issues, where it is. Clean conversations are counted, not listed. */
export interface CheckFinding {
  file: string;
  line?: number;
  verdict: Verdict;
  issues: CheckIssue[];
}

/**
 * Core's issues with their places: the message index and the tool call id they concern.
 *
 * @example
 * placeIssues(messages, validateHistory(messages))[0]; // { code, severity, message, path, messageIndex: 2, callId: "call_w1" }
 */
export function placeIssues(messages: readonly unknown[], issues: readonly Issue[]): CheckIssue[] {
  return issues.map((found) => {
    const placed: CheckIssue = {
      code: found.code,
      severity: found.severity,
      message: found.message,
      path: found.path,
    };
    if (typeof found.path[0] === "number") placed.messageIndex = found.path[0];
    const callId = callIdAt(messages, found.path);
    if (callId !== undefined) placed.callId = callId;
    return placed;
  });
}

/**
 * A strict provider rejects a conversation with any issue of severity `error`.
 *
 * @example
 * verdictOf([{ code: "arguments_raw_sentinel", severity: "warning", message: "" }]); // "accepted"
 */
export function verdictOf(issues: readonly CheckIssue[]): Verdict {
  return issues.some((found) => found.severity === "error") ? "rejected" : "accepted";
}
