// What crosses between the main thread and a worker for a byte range of a JSONL file.
import type { InputIssue } from "../input/input-issue.js";
import type { RecordData } from "../records/record-work.js";

/** A byte range of a JSONL file for one worker: the lines that start in `[start, end)` are its own. */
export interface RangeRequest {
  path: string;
  start: number;
  end: number;
  /** The file's size when the run began (a line that ends at it without a newline is the last line). */
  size: number;
  maxLineBytes: number;
  /** Repair: hold the output until it is placed. Check: no output. */
  write: boolean;
  /** Give each replacement with the bytes it replaced (for a journal). */
  journal: boolean;
}

/** What a record of an array line (a JSONL line holding a whole array of records) gave, in order. */
export type ArrayEvent =
  | { index?: number; format: string; data: RecordData }
  | { index?: number; issue: InputIssue };

/**
 * What one line of a range gave, in order, with the line's number counted from the range's first line (1). Records
 * with nothing to report come as runs (`quiet`), so a range of clean records costs the main thread a few numbers.
 */
export type RangeEvent =
  | { t: "quiet"; format: string; lines: number[]; conversations: number[]; kind: RecordData["kind"] }
  | { t: "record"; n: number; format: string; data?: RecordData; exactData?: string }
  | { t: "unreadable"; n: number; issue: InputIssue; counted: boolean }
  | { t: "unknown"; n: number; issue: InputIssue; empty: boolean }
  | { t: "array"; n: number; events: ArrayEvent[] };

/** A replacement in a range's output: `at` counts from the range's first output byte. */
export interface RangeEntry {
  at: number;
  length: number;
  original?: string;
  originalBase64?: string;
  /** The line (counted from the range's first), or the element of an array line. */
  n: number;
  index?: number;
  rules?: string[];
}

/** What a worker tells of a range once it is worked on (its output, when any, waits to be placed). */
export interface RangeResult {
  /** Lines that start in the range. */
  lines: number;
  /** Input bytes of those lines. */
  inputBytes: number;
  outputBytes: number;
  events: RangeEvent[];
  entries: RangeEntry[];
}
