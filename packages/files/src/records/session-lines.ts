import { isUtf8 } from "node:buffer";
import { parseJson } from "@toolcall/core";
import { plainJsonError, withoutBom } from "../input/document-text.js";
import type { InputIssue } from "../input/input-issue.js";
import { detectJsonStyle } from "./json-style.js";
import { type Piece, serializeRecord } from "./record-writer.js";

// A session file (JSON lines of one conversation) or a server-sent event log, read whole: its lines as they are, the
// value each record line holds, and, once the session is repaired, the lines to write (kept ones by index).

/** Lines of a whole input, each with its terminator, exactly as read. */
function splitLines(raw: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let nl = raw.indexOf(10); nl !== -1; nl = raw.indexOf(10, start)) {
    lines.push(raw.subarray(start, nl + 1));
    start = nl + 1;
  }
  if (start < raw.length) lines.push(raw.subarray(start));
  return lines;
}

/** A line's content (without `\n` or `\r\n`) and its terminator. */
function contentOf(line: Buffer): { content: Buffer; eol: Buffer } {
  let end = line.length;
  if (line[end - 1] === 10) end--;
  if (line[end - 1] === 13) end--;
  return { content: line.subarray(0, end), eol: line.subarray(end) };
}

/** A session's lines, each with its terminator, the values its record lines hold, and the line of each value. */
export interface SessionLines {
  lines: Buffer[];
  values: unknown[];
  lineOfValue: number[];
}

/**
 * Reads a session file or event log (`data:` lines; `[DONE]` and other lines hold no value): each line that is not
 * UTF-8 or not JSON goes to `unreadable` and holds no value.
 */
export function readSessionLines(
  raw: Buffer,
  framing: "session" | "sse",
  unreadable: (place: { line: number }, issue: InputIssue) => void,
): SessionLines {
  const lines = splitLines(raw);
  const values: unknown[] = [];
  const lineOfValue: number[] = [];
  lines.forEach((line, index) => {
    const { content } = contentOf(line);
    if (!isUtf8(content)) {
      unreadable(
        { line: index + 1 },
        { code: "line_invalid_utf8", message: "the line holds bytes that are not UTF-8" },
      );
      return;
    }
    let text = content.toString("utf8");
    if (index === 0) text = withoutBom(text).text;
    if (framing === "sse") {
      const data = /^data: ?/.exec(text);
      if (data === null) return;
      text = text.slice(data[0].length);
      if (text.trim() === "[DONE]") return;
    }
    if (text.trim() === "") return;
    const parsed = parseJson(text, { lossless: true });
    if (!parsed.success) {
      unreadable({ line: index + 1 }, { code: "line_invalid_json", message: plainJsonError(parsed.error) });
      return;
    }
    values.push(parsed.value);
    lineOfValue.push(index);
  });
  return { lines, values, lineOfValue };
}

/**
 * The pieces that write a repaired session: `next` is its list of values, in which unchanged values are the same
 * objects as in `session.values`. Lines of kept values and lines that hold no value are kept where they are; new
 * values take the places of the values they replace, written in the style of the first record line. An issue when a
 * value cannot be written.
 */
export function sessionRewritePieces(
  session: SessionLines,
  next: readonly unknown[],
  framing: "session" | "sse",
): Piece[] | InputIssue {
  const { lines, values, lineOfValue } = session;
  const original = new Map<unknown, number>();
  for (const [i, value] of values.entries()) original.set(value, i);
  const eol = contentOf(lines[lineOfValue[0] ?? 0] ?? Buffer.from("\n")).eol.toString("latin1") || "\n";
  const firstText = contentOf(lines[lineOfValue[0] ?? 0] ?? Buffer.alloc(0)).content.toString("utf8");
  const style = detectJsonStyle(withoutBom(firstText).text.replace(/^data: ?/, ""));
  const fresh = (value: unknown): Buffer | undefined => {
    const written = serializeRecord(value, style, true);
    if (!written.success) return undefined;
    return Buffer.from(`${framing === "sse" ? "data: " : ""}${written.value}${eol}`, "utf8");
  };
  const pieces: Piece[] = [];
  const valueLines = new Set(lineOfValue);
  let pointer = 0;
  const isKept = (value: unknown) => original.has(value);
  // Walk the original lines; between two kept values, changed values take the places of the values they replace,
  // in order, and lines that hold no value stay where they are.
  const anchors = next.filter(isKept).map((value) => lineOfValue[original.get(value) as number] as number);
  let anchorAt = 0;
  for (let index = 0; index <= lines.length; index++) {
    const nextAnchor = anchors[anchorAt] ?? lines.length;
    if (index === nextAnchor || index === lines.length) {
      // Every new value before the anchor goes here, in order.
      while (pointer < next.length && !isKept(next[pointer])) {
        const bytes = fresh(next[pointer]);
        if (bytes === undefined)
          return { code: "input_not_rewritable", message: "a rewritten line cannot be written" };
        pieces.push({ bytes, place: `line ${index + 1}` });
        pointer++;
      }
      if (index === lines.length) break;
      pieces.push({ keep: index });
      pointer++;
      anchorAt++;
      continue;
    }
    if (!valueLines.has(index)) {
      pieces.push({ keep: index });
      continue;
    }
    // A value line that is not kept: replaced by the next new value, if one comes before the next anchor.
    if (pointer < next.length && !isKept(next[pointer])) {
      const bytes = fresh(next[pointer]);
      if (bytes === undefined)
        return { code: "input_not_rewritable", message: "a rewritten line cannot be written" };
      pieces.push({ bytes, place: `line ${index + 1}` });
      pointer++;
    }
  }
  return pieces;
}
