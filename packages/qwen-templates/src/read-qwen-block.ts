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

function skipWhitespace(text: string, at: number): number {
  let p = at;
  while (p < text.length && /\s/.test(text[p] as string)) p++;
  return p;
}

/** True when the rest of the text could still grow into one of the markers. */
function couldBecome(rest: string, markers: readonly string[]): boolean {
  return rest.length > 0 && markers.some((m) => m.startsWith(rest));
}

function stripOneNewline(text: string): string {
  let out = text;
  if (out.startsWith("\n")) out = out.slice(1);
  if (out.endsWith("\n")) out = out.slice(0, -1);
  return out;
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
function findValueEnd(text: string, start: number, final: boolean): ValueEnd {
  // A parameter tag that starts a line ends the value before it, even without </parameter>.
  const lineParameter = text.indexOf(`\n${PARAMETER_OPEN}`, start);
  for (let i = text.indexOf(PARAMETER_CLOSE, start); i !== -1; i = text.indexOf(PARAMETER_CLOSE, i + 1)) {
    if (lineParameter !== -1 && i > lineParameter) break;
    const after = skipWhitespace(text, i + PARAMETER_CLOSE.length);
    if (text.startsWith(PARAMETER_OPEN, after) || text.startsWith(FUNCTION_CLOSE, after)) {
      return { status: "ok", valueEnd: i, next: i + PARAMETER_CLOSE.length, unclosed: false };
    }
    if (after >= text.length) {
      if (!final) return { status: "incomplete" };
      return { status: "ok", valueEnd: i, next: i + PARAMETER_CLOSE.length, unclosed: false };
    }
    if (!final && couldBecome(text.slice(after), [PARAMETER_OPEN, FUNCTION_CLOSE]))
      return { status: "incomplete" };
  }
  if (lineParameter !== -1)
    return { status: "ok", valueEnd: lineParameter + 1, next: lineParameter + 1, unclosed: true };
  if (!final) return { status: "incomplete" };
  const functionClose = text.indexOf(FUNCTION_CLOSE, start);
  if (functionClose === -1) return { status: "truncated" };
  return { status: "ok", valueEnd: functionClose, next: functionClose, unclosed: true };
}

/**
 * Reads the call that starts at `start` (at `<tool_call>` or a bare `<function=`). With `final` false, any
 * decision that more text could change gives `incomplete`, so a stream decides exactly as a whole parse does.
 */
export function readQwenBlock(text: string, start: number, final: boolean): BlockResult {
  const wrapped = text.startsWith(TOOL_CALL_OPEN, start);
  let p = wrapped ? skipWhitespace(text, start + TOOL_CALL_OPEN.length) : start;
  const invalid = (message: string): BlockResult => {
    if (!wrapped) return { status: "invalid", end: start + FUNCTION_OPEN.length, message };
    const close = text.indexOf(TOOL_CALL_CLOSE, start);
    if (close === -1) return final ? { status: "invalid", end: text.length, message } : INCOMPLETE;
    return { status: "invalid", end: close + TOOL_CALL_CLOSE.length, message };
  };
  if (p >= text.length) return final ? TRUNCATED : INCOMPLETE;
  if (wrapped && text[p] === "{") {
    const close = text.indexOf(TOOL_CALL_CLOSE, p);
    if (close === -1) return final ? TRUNCATED : INCOMPLETE;
    return { status: "json", end: close + TOOL_CALL_CLOSE.length, body: text.slice(p, close) };
  }
  if (!text.startsWith(FUNCTION_OPEN, p)) {
    if (!final && couldBecome(text.slice(p), [FUNCTION_OPEN])) return INCOMPLETE;
    return invalid("a tool call that is neither <function=…> nor JSON");
  }
  p += FUNCTION_OPEN.length;
  const nameEnd = text.indexOf(">", p);
  if (nameEnd === -1) return final ? TRUNCATED : INCOMPLETE;
  const name = text.slice(p, nameEnd).trim();
  if (name === "" || /[<\n]/.test(name)) return invalid("a function without a name");
  p = nameEnd + 1;
  const parameters: RawParameter[] = [];
  for (;;) {
    p = skipWhitespace(text, p);
    if (p >= text.length) return final ? TRUNCATED : INCOMPLETE;
    if (text.startsWith(PARAMETER_OPEN, p)) {
      const q = p + PARAMETER_OPEN.length;
      const parameterNameEnd = text.indexOf(">", q);
      if (parameterNameEnd === -1) return final ? TRUNCATED : INCOMPLETE;
      const parameterName = text.slice(q, parameterNameEnd).trim();
      const found = findValueEnd(text, parameterNameEnd + 1, final);
      if (found.status !== "ok") return found.status === "incomplete" ? INCOMPLETE : TRUNCATED;
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
    if (!final && couldBecome(text.slice(p), [PARAMETER_OPEN, FUNCTION_CLOSE])) return INCOMPLETE;
    return invalid("text inside a function that is not a parameter");
  }
  if (!wrapped) return { status: "call", end: p, name, parameters, unclosed: false };
  const q = skipWhitespace(text, p);
  if (text.startsWith(TOOL_CALL_CLOSE, q)) {
    return { status: "call", end: q + TOOL_CALL_CLOSE.length, name, parameters, unclosed: false };
  }
  if (!final && (q >= text.length || couldBecome(text.slice(q), [TOOL_CALL_CLOSE]))) return INCOMPLETE;
  return { status: "call", end: p, name, parameters, unclosed: true };
}

/** The next place a call may start (`<tool_call>` or a bare `<function=`), or -1. */
export function nextBlockStart(text: string, from: number): number {
  const a = text.indexOf(TOOL_CALL_OPEN, from);
  const b = text.indexOf(FUNCTION_OPEN, from);
  if (a === -1) return b;
  if (b === -1) return a;
  return Math.min(a, b);
}
