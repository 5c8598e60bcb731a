import { createTokenFinder, type TokenFinder, type WorkMeter } from "@toolcall/core/kit";

/**
 * The markers of Qwen3-Coder / Qwen3.5 tool calls.
 *
 * @example
 * `${TOOL_CALL_OPEN}\n${FUNCTION_OPEN}get_weather>\n${PARAMETER_OPEN}city>\nParis\n${PARAMETER_CLOSE}\n${FUNCTION_CLOSE}\n${TOOL_CALL_CLOSE}`;
 */
export const TOOL_CALL_OPEN = "<tool_call>";
export const TOOL_CALL_CLOSE = "</tool_call>";
export const FUNCTION_OPEN = "<function=";
export const FUNCTION_CLOSE = "</function>";
export const PARAMETER_OPEN = "<parameter=";
export const PARAMETER_CLOSE = "</parameter>";

/** One parameter as written: its name and its text (one leading and one trailing newline removed). */
export interface RawParameter {
  name: string;
  text: string;
  /** `</parameter>` was missing; the value ended at the next tag. */
  unclosed: boolean;
}

export type BlockResult =
  | { status: "call"; end: number; name: string; parameters: RawParameter[]; unclosed: boolean }
  | { status: "json"; end: number; body: string }
  | { status: "invalid"; end: number; message: string }
  | { status: "incomplete" }
  | { status: "truncated" };

const INCOMPLETE: BlockResult = { status: "incomplete" };
const TRUNCATED: BlockResult = { status: "truncated" };
const LINE_PARAMETER = `\n${PARAMETER_OPEN}`;

/** A forward search remembered: from `from`, the first match is at `found` (-1: none to the end). */
interface Memo {
  from: number;
  found: number;
}

/**
 * One text being read, and what is known about it: where its markers are (a {@link TokenFinder}), and which
 * `</parameter>` is the next to end a value. With it, reading every block of a text, or trying a stream's block
 * again, scans each stretch a bounded number of times. Every scan is charged to the meter.
 */
export class QwenTextScan {
  readonly finder: TokenFinder;
  /** The next `</parameter>` that decides a value, for a final read (1) and a read that more text may change (0). */
  readonly deciding: [Memo, Memo] = [
    { from: Number.POSITIVE_INFINITY, found: -1 },
    { from: Number.POSITIVE_INFINITY, found: -1 },
  ];

  constructor(
    readonly text: string,
    readonly meter: WorkMeter,
  ) {
    this.finder = createTokenFinder({ text, meter });
  }
}

function skipWhitespace(scan: QwenTextScan, at: number): number {
  const { text } = scan;
  let p = at;
  while (p < text.length && /\s/.test(text[p] as string)) p++;
  scan.meter.charge(p - at);
  return p;
}

/** True when the rest of the text could still grow into one of the markers. */
function couldBecome(text: string, at: number, markers: readonly string[]): boolean {
  const rest = text.length - at;
  return rest > 0 && markers.some((m) => rest <= m.length && m.startsWith(text.slice(at)));
}

function stripOneNewline(text: string): string {
  let out = text;
  if (out.startsWith("\n")) out = out.slice(1);
  if (out.endsWith("\n")) out = out.slice(0, -1);
  return out;
}

/** What the `</parameter>` at `at` does: ends the value (`ok`), needs more text to tell (`incomplete`), or neither. */
function closeDecision(scan: QwenTextScan, at: number, final: boolean): "ok" | "incomplete" | "neither" {
  const { text } = scan;
  const after = skipWhitespace(scan, at + PARAMETER_CLOSE.length);
  if (text.startsWith(PARAMETER_OPEN, after) || text.startsWith(FUNCTION_CLOSE, after)) return "ok";
  if (after >= text.length) return final ? "ok" : "incomplete";
  if (!final && couldBecome(text, after, [PARAMETER_OPEN, FUNCTION_CLOSE])) return "incomplete";
  return "neither";
}

/** The first `</parameter>` at or after `from` that decides a value, remembered for the values that follow. */
function nextDeciding(scan: QwenTextScan, from: number, final: boolean): number {
  const memo = scan.deciding[final ? 1 : 0];
  if (memo.from <= from && (memo.found === -1 || memo.found >= from)) return memo.found;
  let at = scan.finder.indexOf(PARAMETER_CLOSE, from);
  while (at !== -1 && closeDecision(scan, at, final) === "neither")
    at = scan.finder.indexOf(PARAMETER_CLOSE, at + 1);
  memo.from = from;
  memo.found = at;
  return at;
}

type ValueEnd =
  | { status: "ok"; valueEnd: number; next: number; unclosed: boolean }
  | { status: "incomplete" | "truncated" };

/**
 * Where a parameter value ends: at the first `</parameter>` followed (after whitespace) by `<parameter=` or
 * `</function>`; any other `</parameter>` is part of the value. A `<parameter=` that starts a line before that
 * closer ends the value (a missing `</parameter>`); with neither, the value runs to `</function>`, decided only once
 * the text is final.
 */
function findValueEnd(scan: QwenTextScan, start: number, final: boolean): ValueEnd {
  // A parameter tag that starts a line ends the value before it, even without </parameter>.
  const lineParameter = scan.finder.indexOf(LINE_PARAMETER, start);
  const close = nextDeciding(scan, start, final);
  if (close !== -1 && (lineParameter === -1 || close < lineParameter)) {
    if (closeDecision(scan, close, final) === "incomplete") return { status: "incomplete" };
    return { status: "ok", valueEnd: close, next: close + PARAMETER_CLOSE.length, unclosed: false };
  }
  if (lineParameter !== -1)
    return { status: "ok", valueEnd: lineParameter + 1, next: lineParameter + 1, unclosed: true };
  if (!final) return { status: "incomplete" };
  const functionClose = scan.finder.indexOf(FUNCTION_CLOSE, start);
  if (functionClose === -1) return { status: "truncated" };
  return { status: "ok", valueEnd: functionClose, next: functionClose, unclosed: true };
}

/**
 * Reads the call that starts at `start` (at `<tool_call>` or a bare `<function=`). With `final` false, any
 * decision that more text could change gives `incomplete`, so a stream decides exactly as a whole parse does.
 * Linear: every search goes through the scan's memory, and the work is charged to its meter.
 */
export function readQwenBlock(scan: QwenTextScan, start: number, final: boolean): BlockResult {
  const { text, finder, meter } = scan;
  const wrapped = text.startsWith(TOOL_CALL_OPEN, start);
  let p = wrapped ? skipWhitespace(scan, start + TOOL_CALL_OPEN.length) : start;
  const invalid = (message: string): BlockResult => {
    if (!wrapped) return { status: "invalid", end: start + FUNCTION_OPEN.length, message };
    const close = finder.indexOf(TOOL_CALL_CLOSE, start);
    if (close === -1) return final ? { status: "invalid", end: text.length, message } : INCOMPLETE;
    return { status: "invalid", end: close + TOOL_CALL_CLOSE.length, message };
  };
  if (p >= text.length) return final ? TRUNCATED : INCOMPLETE;
  if (wrapped && text[p] === "{") {
    const close = finder.indexOf(TOOL_CALL_CLOSE, p);
    if (close === -1) return final ? TRUNCATED : INCOMPLETE;
    meter.charge(close - p);
    return { status: "json", end: close + TOOL_CALL_CLOSE.length, body: text.slice(p, close) };
  }
  if (!text.startsWith(FUNCTION_OPEN, p)) {
    if (!final && couldBecome(text, p, [FUNCTION_OPEN])) return INCOMPLETE;
    return invalid("a tool call that is neither <function=…> nor JSON");
  }
  p += FUNCTION_OPEN.length;
  const nameEnd = finder.indexOf(">", p);
  if (nameEnd === -1) return final ? TRUNCATED : INCOMPLETE;
  meter.charge(2 * (nameEnd - p));
  const name = text.slice(p, nameEnd).trim();
  if (name === "" || /[<\n]/.test(name)) return invalid("a function without a name");
  p = nameEnd + 1;
  const parameters: RawParameter[] = [];
  for (;;) {
    p = skipWhitespace(scan, p);
    if (p >= text.length) return final ? TRUNCATED : INCOMPLETE;
    if (text.startsWith(PARAMETER_OPEN, p)) {
      const q = p + PARAMETER_OPEN.length;
      const parameterNameEnd = finder.indexOf(">", q);
      if (parameterNameEnd === -1) return final ? TRUNCATED : INCOMPLETE;
      const parameterName = text.slice(q, parameterNameEnd).trim();
      const found = findValueEnd(scan, parameterNameEnd + 1, final);
      if (found.status !== "ok") return found.status === "incomplete" ? INCOMPLETE : TRUNCATED;
      // The name and the value, copied out.
      meter.charge(2 * (found.valueEnd - q));
      parameters.push({
        name: parameterName,
        text: stripOneNewline(text.slice(parameterNameEnd + 1, found.valueEnd)),
        unclosed: found.unclosed,
      });
      p = found.next;
      continue;
    }
    if (text.startsWith(FUNCTION_CLOSE, p)) {
      p += FUNCTION_CLOSE.length;
      break;
    }
    if (!final && couldBecome(text, p, [PARAMETER_OPEN, FUNCTION_CLOSE])) return INCOMPLETE;
    return invalid("text inside a function that is not a parameter");
  }
  if (!wrapped) return { status: "call", end: p, name, parameters, unclosed: false };
  const q = skipWhitespace(scan, p);
  if (text.startsWith(TOOL_CALL_CLOSE, q)) {
    return { status: "call", end: q + TOOL_CALL_CLOSE.length, name, parameters, unclosed: false };
  }
  if (!final && (q >= text.length || couldBecome(text, q, [TOOL_CALL_CLOSE]))) return INCOMPLETE;
  return { status: "call", end: p, name, parameters, unclosed: true };
}

/** The next place a call may start (`<tool_call>` or a bare `<function=`), or -1. */
export function nextBlockStart(scan: QwenTextScan, from: number): number {
  const a = scan.finder.indexOf(TOOL_CALL_OPEN, from);
  const b = scan.finder.indexOf(FUNCTION_OPEN, from);
  if (a === -1) return b;
  if (b === -1) return a;
  return Math.min(a, b);
}
