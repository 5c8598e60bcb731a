import { encodeArguments, randomCallId } from "@toolcall/core";
import { parseGemmaArguments } from "./parse-gemma-arguments.js";
import { CHANNEL_CLOSE, CHANNEL_OPEN, TOOL_CALL_CLOSE, TOOL_CALL_OPEN } from "./tokens.js";

/** An OpenAI-shaped tool call recovered from Gemma's native syntax (arguments as canonical JSON text). */
export interface GemmaToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** Why a native call was left in content. */
export interface GemmaIssue {
  code: "gemma_call_unparsed" | "gemma_call_unterminated";
  message: string;
  /** The text left in content, exactly as the model wrote it. */
  raw: string;
}

export type GemmaStreamEvent =
  | { type: "content"; text: string }
  | { type: "tool_call"; toolCall: GemmaToolCall; raw: string }
  | { type: "issue"; issue: GemmaIssue };

export interface GemmaParseOptions {
  /** Makes the id of each recovered call (default: `call_` and 24 random letters and digits). */
  createId?: () => string;
}

/** A random OpenAI-style call id: core's, the one every recovered call gets by default. */
export { randomCallId };

/** Length of the longest suffix of `text` that is a proper prefix of one of `markers` (text to hold back). */
function heldBack(text: string, markers: readonly string[]): number {
  const longest = Math.max(...markers.map((m) => m.length)) - 1;
  for (let size = Math.min(longest, text.length); size > 0; size--) {
    const tail = text.slice(text.length - size);
    if (markers.some((m) => m.startsWith(tail))) return size;
  }
  return 0;
}

type Block =
  | { ok: true; toolCall: GemmaToolCall; end: number }
  | { ok: false; incomplete: true }
  | { ok: false; incomplete: false; message: string };

/**
 * Parses the call at the start of `text` (which begins with `<|tool_call>`), reading as far as its arguments go: a
 * string may hold the closing token, so the call ends where its arguments end, followed by `<tool_call|>`.
 * `incomplete` when the text ran out first.
 */
function parseCall(text: string, createId: () => string): Block {
  const head = /^<\|tool_call>\s*call:([^{<]*)\{/.exec(text);
  if (head === null) {
    return /^<\|tool_call>\s*(c(a(l(l(:[^{<]*)?)?)?)?)?$/.test(text)
      ? { ok: false, incomplete: true }
      : { ok: false, incomplete: false, message: "expected call:NAME{…}" };
  }
  const name = (head[1] as string).trim();
  if (name === "" || /\s/.test(name))
    return { ok: false, incomplete: false, message: "expected call:NAME{…}" };
  const parsed = parseGemmaArguments(text, head[0].length - 1);
  if (!parsed.ok) {
    if (parsed.error === "unterminated string" || parsed.position >= text.length)
      return { ok: false, incomplete: true };
    return { ok: false, incomplete: false, message: `${parsed.error} at ${parsed.position}` };
  }
  let end = parsed.end;
  while (end < text.length && /\s/.test(text.charAt(end))) end++;
  if (text.startsWith(TOOL_CALL_CLOSE, end)) {
    const toolCall: GemmaToolCall = {
      id: createId(),
      type: "function",
      function: { name, arguments: encodeArguments(parsed.value) },
    };
    return { ok: true, toolCall, end: end + TOOL_CALL_CLOSE.length };
  }
  if (TOOL_CALL_CLOSE.startsWith(text.slice(end))) return { ok: false, incomplete: true };
  return { ok: false, incomplete: false, message: "text after the arguments" };
}

/**
 * Finds Gemma 4's native tool calls in streamed assistant text (R7), fed delta by delta. Plain text is passed on as
 * soon as it cannot be the start of a special token; a token split across deltas is held back until it can be
 * decided. Text inside a channel (`<|channel>thought…<channel|>`) is passed through untouched, never parsed for
 * calls. A call that does not parse, or never ends, is passed on as content, exactly as written, with an issue.
 *
 * @example
 * const stream = new GemmaToolCallStream();
 * stream.push("Let me check.<|tool_ca"); // [{ type: "content", text: "Let me check." }]
 * stream.push('ll>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>');
 * // [{ type: "tool_call", toolCall: { function: { name: "get_weather", arguments: '{"city":"Paris"}' }, … }, raw }]
 * stream.end(); // []
 */
export class GemmaToolCallStream {
  #mode: "text" | "channel" | "call" = "text";
  #pending = "";
  /** Where to resume looking for the end of a call in `#pending`. */
  #searchFrom = 0;
  /** The length of `#pending` at the last failed try to read the call (0: none failed). */
  #failedAt = 0;
  readonly #createId: () => string;

  constructor(options: GemmaParseOptions = {}) {
    this.#createId = options.createId ?? randomCallId;
  }

  /** Feeds one delta of assistant text; returns what can be decided now. */
  push(delta: string): GemmaStreamEvent[] {
    this.#pending += delta;
    const events: GemmaStreamEvent[] = [];
    for (;;) {
      const before = this.#pending.length + this.#mode;
      this.#step(events, false);
      if (this.#pending.length + this.#mode === before) return merge(events);
    }
  }

  /** Ends the stream: held text is passed on, an unterminated call becomes content with an issue. */
  end(): GemmaStreamEvent[] {
    const events: GemmaStreamEvent[] = [];
    for (;;) {
      const before = this.#pending.length + this.#mode;
      this.#step(events, true);
      if (this.#pending.length + this.#mode === before) break;
    }
    if (this.#pending !== "") {
      if (this.#mode === "call") {
        events.push({
          type: "issue",
          issue: {
            code: "gemma_call_unterminated",
            message: "the stream ended inside a tool call",
            raw: this.#pending,
          },
        });
      }
      events.push({ type: "content", text: this.#pending });
      this.#pending = "";
    }
    this.#mode = "text";
    return merge(events);
  }

  #emit(events: GemmaStreamEvent[], size: number): void {
    if (size > 0) events.push({ type: "content", text: this.#pending.slice(0, size) });
    this.#pending = this.#pending.slice(size);
  }

  #step(events: GemmaStreamEvent[], ending: boolean): void {
    const text = this.#pending;
    if (this.#mode === "text") {
      const call = text.indexOf(TOOL_CALL_OPEN);
      const channel = text.indexOf(CHANNEL_OPEN);
      if (call !== -1 && (channel === -1 || call < channel)) {
        this.#emit(events, call);
        this.#mode = "call";
        this.#searchFrom = TOOL_CALL_OPEN.length;
      } else if (channel !== -1) {
        this.#emit(events, channel + CHANNEL_OPEN.length);
        this.#mode = "channel";
      } else {
        this.#emit(
          events,
          ending ? text.length : text.length - heldBack(text, [TOOL_CALL_OPEN, CHANNEL_OPEN]),
        );
      }
      return;
    }
    if (this.#mode === "channel") {
      const close = text.indexOf(CHANNEL_CLOSE);
      if (close !== -1) {
        this.#emit(events, close + CHANNEL_CLOSE.length);
        this.#mode = "text";
      } else {
        this.#emit(events, ending ? text.length : text.length - heldBack(text, [CHANNEL_CLOSE]));
      }
      return;
    }
    // In a call: try to read it whenever a closing token has arrived. After a failed try (a string that holds the
    // closing token, or a call that will never parse), try again only once the text has doubled, so hostile input
    // stays linear; the call is then decided late, never lost.
    const close = text.indexOf(TOOL_CALL_CLOSE, this.#searchFrom);
    const nextSearch = Math.max(TOOL_CALL_OPEN.length, text.length - TOOL_CALL_CLOSE.length + 1);
    if (!ending && (close === -1 || text.length < 2 * this.#failedAt)) {
      if (close !== -1 || this.#searchFrom < nextSearch) this.#searchFrom = nextSearch;
      return;
    }
    const block = parseCall(text, this.#createId);
    if (block.ok) {
      events.push({ type: "tool_call", toolCall: block.toolCall, raw: text.slice(0, block.end) });
      this.#leaveCall(block.end);
      return;
    }
    if (block.incomplete && !ending) {
      this.#failedAt = text.length;
      this.#searchFrom = nextSearch;
      return;
    }
    const firstClose = text.indexOf(TOOL_CALL_CLOSE, TOOL_CALL_OPEN.length);
    if (firstClose === -1) return; // ending inside a call: end() reports it unterminated
    const raw = text.slice(0, firstClose + TOOL_CALL_CLOSE.length);
    const message = block.incomplete ? "the arguments never end" : block.message;
    events.push({ type: "issue", issue: { code: "gemma_call_unparsed", message, raw } });
    events.push({ type: "content", text: raw });
    this.#leaveCall(raw.length);
  }

  #leaveCall(size: number): void {
    this.#pending = this.#pending.slice(size);
    this.#mode = "text";
    this.#failedAt = 0;
  }
}

/** Joins adjacent content events, so the same text gives the same events however it was split. */
function merge(events: GemmaStreamEvent[]): GemmaStreamEvent[] {
  const out: GemmaStreamEvent[] = [];
  for (const event of events) {
    const previous = out[out.length - 1];
    if (event.type === "content" && previous?.type === "content") previous.text += event.text;
    else out.push(event.type === "content" ? { ...event } : event);
  }
  return out;
}
