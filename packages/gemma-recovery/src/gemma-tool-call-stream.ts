import { encodeArguments } from "@toolcall/core";
import {
  createWorkMeter,
  isWorkMeter,
  randomCallId,
  WORK_UNITS_BASE,
  WORK_UNITS_PER_CHAR,
  type WorkMeter,
} from "@toolcall/core/kit";
import { GemmaTextScan, readGemmaArguments } from "./parse-gemma-arguments.js";
import { readCallHead } from "./read-call-head.js";
import { CHANNEL_CLOSE, CHANNEL_OPEN, TOOL_CALL_CLOSE, TOOL_CALL_OPEN } from "./tokens.js";

/** An OpenAI-shaped tool call recovered from Gemma's native syntax (arguments as canonical JSON text). */
export interface GemmaToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** Why a native call, or the rest of the text, was left in content. */
export interface GemmaIssue {
  /**
   * `gemma_call_unparsed`: a call that does not parse without guessing; `gemma_call_unterminated`: the text ended
   * inside a call; `gemma_budget_exhausted`: the work budget ran out, and the rest of the text is content, unread;
   * `call_unclosed`: the text ended after a whole call without `<tool_call|>` (the call is returned; `raw` is its text).
   */
  code: "gemma_call_unparsed" | "gemma_call_unterminated" | "gemma_budget_exhausted" | "call_unclosed";
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
  /**
   * The work meter the parser charges. Default: its own, whose limit grows by `WORK_UNITS_PER_CHAR` units for each
   * character pushed. A caller's meter keeps the caller's limit. Once it runs out, the rest of the text is passed on
   * as content, unread, with a `gemma_budget_exhausted` issue.
   */
  meter?: WorkMeter;
}

/** A random OpenAI-style call id: core's, the one every recovered call gets by default. */
export { randomCallId };

const LONGEST_TOKEN = Math.max(TOOL_CALL_OPEN.length, CHANNEL_OPEN.length, TOOL_CALL_CLOSE.length);

/** Length of the longest suffix of `text` that is a proper prefix of one of `markers` (text to hold back). */
function heldBack(text: string, markers: readonly string[]): number {
  for (let size = Math.min(LONGEST_TOKEN - 1, text.length); size > 0; size--) {
    const tail = text.slice(text.length - size);
    if (markers.some((m) => m.startsWith(tail))) return size;
  }
  return 0;
}

type Block =
  | { ok: true; toolCall: GemmaToolCall; end: number }
  /** `unclosed`: the arguments are whole and nothing but whitespace follows (the closing token may still come). */
  | { ok: false; incomplete: true; unclosed?: GemmaToolCall }
  | { ok: false; incomplete: false; message: string };

/** One option, read once; options that cannot be read are absent. */
export function readOption(options: unknown, key: keyof GemmaParseOptions): unknown {
  try {
    return typeof options === "object" && options !== null ? (options as GemmaParseOptions)[key] : undefined;
  } catch {
    return undefined;
  }
}

function callId(createId: () => string): string {
  try {
    const id = createId();
    if (typeof id === "string") return id;
  } catch {
    // A throwing id maker gets core's id instead: the call is not lost for it.
  }
  return randomCallId();
}

/**
 * Parses the call at `at` in the scanned text (which begins with `<|tool_call>` there), reading as far as its
 * arguments go: a string may hold the closing token, so the call ends where its arguments end, followed by
 * `<tool_call|>`. `incomplete` when the text ran out first.
 */
function parseCall(scan: GemmaTextScan, at: number, createId: () => string): Block {
  const { text, meter } = scan;
  const head = readCallHead(text, at + TOOL_CALL_OPEN.length, meter);
  if (head.status === "partial") return { ok: false, incomplete: true };
  if (head.status === "invalid") return { ok: false, incomplete: false, message: "expected call:NAME{…}" };
  const parsed = readGemmaArguments(scan, head.brace);
  if (!parsed.ok) {
    if (parsed.error === "unterminated string" || parsed.position >= text.length)
      return { ok: false, incomplete: true };
    return { ok: false, incomplete: false, message: `${parsed.error} at ${parsed.position}` };
  }
  let end = parsed.end;
  while (end < text.length && /\s/.test(text.charAt(end))) end++;
  meter.charge(end - parsed.end);
  const toolCall = (): GemmaToolCall => {
    const encoded = encodeArguments(parsed.value);
    meter.charge(encoded.length);
    return { id: callId(createId), type: "function", function: { name: head.name, arguments: encoded } };
  };
  if (text.startsWith(TOOL_CALL_CLOSE, end))
    return { ok: true, toolCall: toolCall(), end: end + TOOL_CALL_CLOSE.length };
  if (end === text.length) return { ok: false, incomplete: true, unclosed: toolCall() };
  if (TOOL_CALL_CLOSE.startsWith(text.slice(end))) return { ok: false, incomplete: true };
  return { ok: false, incomplete: false, message: "text after the arguments" };
}

/**
 * Finds Gemma 4's native tool calls in streamed assistant text (R7), fed delta by delta. Plain text is passed on as
 * soon as it cannot be the start of a special token; a token split across deltas is held back until it can be
 * decided. Text inside a channel (`<|channel>thought…<channel|>`) is passed through untouched, never parsed for
 * calls. A call that does not parse, or never ends, is passed on as content, exactly as written, with an issue.
 *
 * Linear in the text: each delta is searched once (with the few characters before it) for the tokens that can
 * decide something, a call is read only when its closing token arrives (and, after a failed read, only once its
 * text has doubled), and every step is charged to the work meter.
 *
 * @example
 * const stream = new GemmaToolCallStream();
 * stream.push("Let me check.<|tool_ca"); // [{ type: "content", text: "Let me check." }]
 * stream.push('ll>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>');
 * // [{ type: "tool_call", toolCall: { function: { name: "get_weather", arguments: '{"city":"Paris"}' }, … }, raw }]
 * stream.end(); // []
 */
export class GemmaToolCallStream {
  #mode: "text" | "channel" | "call" | "spent" = "text";
  /** The text read so far that is not passed on yet starts at `#pos` in `#text`… */
  #text = "";
  #pos = 0;
  /** …and goes on with the deltas in `#tail`, which a call's text collects until it is read. */
  #tail: string[] = [];
  #tailLength = 0;
  /** The last characters before the tail's newest delta: a closing token may begin there. */
  #carry = "";
  #scan: GemmaTextScan;
  /** A closing token arrived since the call was last looked at. */
  #closeArrived = false;
  /** The pending length at the last failed try to read the call (0: none failed). */
  #failedAt = 0;
  readonly #createId: () => string;
  readonly #meter: WorkMeter;
  readonly #ownMeter: boolean;

  constructor(options: GemmaParseOptions = {}) {
    const createId = readOption(options, "createId");
    const meter = readOption(options, "meter");
    this.#createId = typeof createId === "function" ? (createId as () => string) : randomCallId;
    this.#ownMeter = !isWorkMeter(meter);
    this.#meter = isWorkMeter(meter) ? meter : createWorkMeter({ limit: WORK_UNITS_BASE });
    this.#scan = new GemmaTextScan("", this.#meter);
  }

  /** Feeds one delta of assistant text (anything but a string counts as no text); returns what can be decided now. */
  push(delta: string): GemmaStreamEvent[] {
    const text = typeof delta === "string" ? delta : "";
    if (this.#ownMeter) this.#meter.grant(WORK_UNITS_PER_CHAR * text.length);
    const events: GemmaStreamEvent[] = [];
    if (this.#mode === "spent") {
      if (text !== "") events.push({ type: "content", text });
      return events;
    }
    if (this.#mode === "call") {
      this.#tail.push(text);
      this.#tailLength += text.length;
      const window = this.#carry + text;
      this.#meter.charge(window.length);
      if (window.includes(TOOL_CALL_CLOSE)) this.#closeArrived = true;
      this.#carry = window.slice(-(TOOL_CALL_CLOSE.length - 1));
      if (!this.#closeArrived || this.#pendingLength() < 2 * this.#failedAt) {
        this.#closeArrived = false;
        return events;
      }
      this.#merge();
    } else {
      this.#tail.push(text);
      this.#tailLength += text.length;
      this.#merge();
    }
    this.#run(events, false);
    return merge(events);
  }

  /** Ends the stream: held text is passed on, an unterminated call becomes content with an issue. */
  end(): GemmaStreamEvent[] {
    const events: GemmaStreamEvent[] = [];
    if (this.#mode !== "spent") {
      this.#merge();
      this.#run(events, true);
      const rest = this.#text.slice(this.#pos);
      if (rest !== "") {
        if (this.#mode === "call") {
          events.push({
            type: "issue",
            issue: {
              code: "gemma_call_unterminated",
              message: "the stream ended inside a tool call",
              raw: rest,
            },
          });
        }
        events.push({ type: "content", text: rest });
      }
    }
    this.#mode = "text";
    this.#text = "";
    this.#pos = 0;
    this.#scan = new GemmaTextScan("", this.#meter);
    this.#failedAt = 0;
    return merge(events);
  }

  #pendingLength(): number {
    return this.#text.length - this.#pos + this.#tailLength;
  }

  /** Makes the pending text one string (a new scan: what was known of the old one does not carry over). */
  #merge(): void {
    if (this.#tail.length === 0) return;
    this.#text = this.#text.slice(this.#pos) + this.#tail.join("");
    this.#pos = 0;
    this.#tail = [];
    this.#tailLength = 0;
    this.#meter.charge(this.#text.length);
    this.#scan = new GemmaTextScan(this.#text, this.#meter);
  }

  #emit(events: GemmaStreamEvent[], end: number): void {
    if (end > this.#pos) {
      events.push({ type: "content", text: this.#text.slice(this.#pos, end) });
      this.#meter.charge(end - this.#pos);
    }
    this.#pos = end;
  }

  #run(events: GemmaStreamEvent[], ending: boolean): void {
    for (;;) {
      if (this.#meter.exhausted) {
        this.#spend(events);
        return;
      }
      const pos = this.#pos;
      const mode = this.#mode;
      this.#step(events, ending);
      if (this.#pos === pos && this.#mode === mode) return;
    }
  }

  /** The budget ran out: everything pending, and everything after, is content. */
  #spend(events: GemmaStreamEvent[]): void {
    const rest = this.#text.slice(this.#pos) + this.#tail.join("");
    events.push({
      type: "issue",
      issue: {
        code: "gemma_budget_exhausted",
        message: "the work budget ran out; the rest of the text is content, unread",
        raw: rest,
      },
    });
    if (rest !== "") events.push({ type: "content", text: rest });
    this.#mode = "spent";
    this.#text = "";
    this.#pos = 0;
    this.#tail = [];
    this.#tailLength = 0;
  }

  #step(events: GemmaStreamEvent[], ending: boolean): void {
    const { text, finder } = this.#scan;
    if (this.#mode === "text") {
      const call = finder.indexOf(TOOL_CALL_OPEN, this.#pos);
      const channel = finder.indexOf(CHANNEL_OPEN, this.#pos);
      if (call !== -1 && (channel === -1 || call < channel)) {
        this.#emit(events, call);
        this.#mode = "call";
        this.#closeArrived = finder.indexOf(TOOL_CALL_CLOSE, call + TOOL_CALL_OPEN.length) !== -1;
        this.#carry = text.slice(Math.max(call, text.length - (TOOL_CALL_CLOSE.length - 1)));
      } else if (channel !== -1) {
        this.#emit(events, channel + CHANNEL_OPEN.length);
        this.#mode = "channel";
      } else {
        const hold = ending ? 0 : heldBack(text.slice(this.#pos), [TOOL_CALL_OPEN, CHANNEL_OPEN]);
        this.#emit(events, text.length - hold);
      }
      return;
    }
    if (this.#mode === "channel") {
      const close = finder.indexOf(CHANNEL_CLOSE, this.#pos);
      if (close !== -1) {
        this.#emit(events, close + CHANNEL_CLOSE.length);
        this.#mode = "text";
      } else {
        const hold = ending ? 0 : heldBack(text.slice(this.#pos), [CHANNEL_CLOSE]);
        this.#emit(events, text.length - hold);
      }
      return;
    }
    // In a call: try to read it whenever a closing token has arrived. After a failed try (a string that holds the
    // closing token, or a call that will never parse), try again only once the text has doubled, so hostile input
    // stays linear; the call is then decided late, never lost.
    const arrived = this.#closeArrived;
    this.#closeArrived = false;
    if (!ending && (!arrived || this.#pendingLength() < 2 * this.#failedAt)) return;
    const start = this.#pos;
    const block = parseCall(this.#scan, start, this.#createId);
    if (block.ok) {
      events.push({ type: "tool_call", toolCall: block.toolCall, raw: text.slice(start, block.end) });
      this.#leaveCall(block.end);
      return;
    }
    if (block.incomplete && !ending) {
      this.#failedAt = this.#pendingLength();
      return;
    }
    if (block.incomplete && block.unclosed !== undefined) {
      // The text ends after a whole call whose closing token is missing (a server stripped it as a stop token):
      // a call, as every family reads it, and said so.
      const raw = text.slice(start);
      events.push({
        type: "issue",
        issue: {
          code: "call_unclosed",
          message: `${TOOL_CALL_CLOSE} is missing; the call ends with its arguments`,
          raw,
        },
      });
      events.push({ type: "tool_call", toolCall: block.unclosed, raw });
      this.#leaveCall(text.length);
      return;
    }
    const firstClose = finder.indexOf(TOOL_CALL_CLOSE, start + TOOL_CALL_OPEN.length);
    if (firstClose === -1) return; // ending inside a call: end() reports it unterminated
    const end = firstClose + TOOL_CALL_CLOSE.length;
    const raw = text.slice(start, end);
    const message = block.incomplete ? "the arguments never end" : block.message;
    events.push({ type: "issue", issue: { code: "gemma_call_unparsed", message, raw } });
    events.push({ type: "content", text: raw });
    this.#leaveCall(end);
  }

  #leaveCall(end: number): void {
    this.#meter.charge(end - this.#pos);
    this.#pos = end;
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
