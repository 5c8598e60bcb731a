import {
  createWorkMeter,
  isWorkMeter,
  WORK_UNITS_BASE,
  WORK_UNITS_PER_CHAR,
  type WorkMeter,
} from "@toolcall/core/kit";
import {
  budgetIssue,
  consumeBlock,
  type ParserContext,
  parserContext,
  readOption,
} from "./parse-qwen-tool-calls.js";
import type { QwenIssue, QwenParseOptions, QwenToolCall } from "./qwen-issue.js";
import {
  FUNCTION_CLOSE,
  FUNCTION_OPEN,
  nextBlockStart,
  QwenTextScan,
  readQwenBlock,
  TOOL_CALL_CLOSE,
  TOOL_CALL_OPEN,
} from "./read-qwen-block.js";

/** What a stream gives as text arrives. */
export type QwenStreamEvent =
  | { type: "content"; text: string }
  | { type: "tool_call"; toolCall: QwenToolCall }
  | { type: "issue"; issue: QwenIssue };

/** Tries of a block that a closing tag may start before the block's text must double for another. */
const FREE_TRIES = 4;
const CARRY = TOOL_CALL_CLOSE.length - 1;

function heldBack(text: string): number {
  const markers = [TOOL_CALL_OPEN, FUNCTION_OPEN];
  for (let size = Math.min(TOOL_CALL_OPEN.length - 1, text.length); size > 0; size--) {
    const tail = text.slice(text.length - size);
    if (markers.some((m) => m.startsWith(tail))) return size;
  }
  return 0;
}

/** Whether `text` holds anything but white space from `from` on. */
function hasTextAfter(text: string, from: number): boolean {
  return /\S/.test(text.slice(from));
}

/**
 * Parses Qwen3-Coder / Qwen3.5 output as it streams. Content is passed on as soon as it cannot start a call; a call
 * is emitted once it is complete; `end()` settles what is left. However the text is split, the events add up to
 * what {@link parseQwenToolCalls} returns for the whole text.
 *
 * Linear in the text: each delta is searched once (with the few characters before it) for the tags that can end a
 * call; a call is read again only when one arrives (a few times per call), or once its text has doubled since the
 * last try, so a call is decided at most a doubling late, never lost. Every step is charged to the work meter.
 *
 * @example
 * const stream = new QwenToolCallStream({ tools });
 * for (const delta of deltas) for (const event of stream.push(delta)) handle(event);
 * for (const event of stream.end()) handle(event);
 */
export class QwenToolCallStream {
  /** The text not passed on yet starts at `#pos` in `#text`, and goes on with the deltas in `#tail`. */
  #text = "";
  #pos = 0;
  #tail: string[] = [];
  #tailLength = 0;
  #scan: QwenTextScan;
  #inBlock = false;
  #spent = false;
  /** The last characters before the newest delta: a closing tag may begin there. */
  #carry = "";
  /** A closing tag, or the first text after `</function>`, arrived since the block was last tried. */
  #arrived = false;
  /** The block ends in `</function>` and white space: the next text decides whether `</tool_call>` follows. */
  #afterFunctionClose = false;
  /** The block's length when it was last tried, and the tries a closing tag may still start. */
  #triedAt = 0;
  #freeTries = FREE_TRIES;
  readonly #context: ParserContext;
  readonly #meter: WorkMeter;
  readonly #ownMeter: boolean;

  constructor(options: QwenParseOptions = {}) {
    this.#context = parserContext(options);
    const meter = readOption(options, "meter");
    this.#ownMeter = !isWorkMeter(meter);
    this.#meter = isWorkMeter(meter) ? meter : createWorkMeter({ limit: WORK_UNITS_BASE });
    this.#scan = new QwenTextScan("", this.#meter);
  }

  /** Feeds a delta of model text (anything but a string counts as no text). */
  push(delta: string): QwenStreamEvent[] {
    const text = typeof delta === "string" ? delta : "";
    if (this.#ownMeter) this.#meter.grant(WORK_UNITS_PER_CHAR * text.length);
    if (this.#spent) return text === "" ? [] : [{ type: "content", text }];
    this.#tail.push(text);
    this.#tailLength += text.length;
    if (this.#inBlock) {
      this.#watch(text);
      if (!this.#shouldTry()) return [];
    }
    this.#merge();
    return this.#drain(false);
  }

  /** The text is complete: settles any held text and any unfinished call. */
  end(): QwenStreamEvent[] {
    if (this.#spent) return [];
    this.#merge();
    const events = this.#drain(true);
    this.#text = "";
    this.#pos = 0;
    this.#scan = new QwenTextScan("", this.#meter);
    this.#inBlock = false;
    return events;
  }

  /** Looks at a delta that went on a block for the tags that can end it: one search, with the carry before it. */
  #watch(delta: string): void {
    const window = this.#carry + delta;
    this.#meter.charge(window.length);
    const functionClose = window.lastIndexOf(FUNCTION_CLOSE);
    if (
      window.includes(TOOL_CALL_CLOSE) ||
      functionClose !== -1 ||
      (this.#afterFunctionClose && /\S/.test(delta))
    )
      this.#arrived = true;
    if (functionClose !== -1)
      this.#afterFunctionClose = !hasTextAfter(window, functionClose + FUNCTION_CLOSE.length);
    else if (/\S/.test(delta)) this.#afterFunctionClose = false;
    this.#carry = window.slice(-CARRY);
  }

  /** Whether to read the block again now: a closing tag arrived and a free try is left, or its text has doubled. */
  #shouldTry(): boolean {
    const length = this.#pendingLength();
    if (length >= 2 * this.#triedAt) return true;
    if (this.#arrived && this.#freeTries > 0) {
      this.#freeTries--;
      return true;
    }
    this.#arrived = false;
    return false;
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
    this.#scan = new QwenTextScan(this.#text, this.#meter);
  }

  #drain(final: boolean): QwenStreamEvent[] {
    const events: QwenStreamEvent[] = [];
    for (;;) {
      if (this.#meter.exhausted) {
        const rest = this.#text.slice(this.#pos) + this.#tail.join("");
        events.push({ type: "issue", issue: budgetIssue(rest) });
        if (rest !== "") events.push({ type: "content", text: rest });
        this.#spent = true;
        this.#text = "";
        this.#pos = 0;
        this.#tail = [];
        this.#tailLength = 0;
        return events;
      }
      const text = this.#text;
      if (!this.#inBlock) {
        const start = nextBlockStart(this.#scan, this.#pos);
        if (start === -1) {
          const keep = final ? 0 : heldBack(text.slice(this.#pos));
          const end = text.length - keep;
          if (end > this.#pos) events.push({ type: "content", text: text.slice(this.#pos, end) });
          this.#meter.charge(end - this.#pos);
          this.#pos = end;
          return events;
        }
        if (start > this.#pos) events.push({ type: "content", text: text.slice(this.#pos, start) });
        this.#meter.charge(start - this.#pos);
        this.#pos = start;
        this.#inBlock = true;
        this.#freeTries = FREE_TRIES;
        this.#carry = text.slice(Math.max(start, text.length - CARRY));
        // Whether the block's text so far ends in `</function>` and white space (looked for near its end only).
        const tail = text.slice(Math.max(start, text.length - 2 * FUNCTION_CLOSE.length));
        const functionClose = tail.lastIndexOf(FUNCTION_CLOSE);
        this.#afterFunctionClose =
          functionClose !== -1 && !hasTextAfter(tail, functionClose + FUNCTION_CLOSE.length);
      }
      const start = this.#pos;
      this.#triedAt = text.length - start;
      this.#arrived = false;
      const block = readQwenBlock(this.#scan, start, final);
      if (block.status === "incomplete" && !final) return events;
      const content: string[] = [];
      const toolCalls: QwenToolCall[] = [];
      const issues: QwenIssue[] = [];
      const next = consumeBlock({
        scan: this.#scan,
        start,
        block,
        context: this.#context,
        content,
        toolCalls,
        issues,
      });
      for (const toolCall of toolCalls) events.push({ type: "tool_call", toolCall });
      for (const issue of issues) events.push({ type: "issue", issue });
      for (const part of content) if (part !== "") events.push({ type: "content", text: part });
      this.#inBlock = false;
      this.#pos = next === -1 ? text.length : next;
      if (next === -1) return events;
    }
  }
}
