import { consumeBlock, parserContext } from "./parse-qwen-tool-calls.js";
import type { QwenIssue, QwenParseOptions, QwenToolCall } from "./qwen-issue.js";
import { FUNCTION_OPEN, nextBlockStart, readQwenBlock, TOOL_CALL_OPEN } from "./read-qwen-block.js";

/** What a stream gives as text arrives. */
export type QwenStreamEvent =
  | { type: "content"; text: string }
  | { type: "tool_call"; toolCall: QwenToolCall }
  | { type: "issue"; issue: QwenIssue };

function heldBack(text: string): number {
  const markers = [TOOL_CALL_OPEN, FUNCTION_OPEN];
  for (let size = Math.min(TOOL_CALL_OPEN.length - 1, text.length); size > 0; size--) {
    const tail = text.slice(text.length - size);
    if (markers.some((m) => m.startsWith(tail))) return size;
  }
  return 0;
}

/**
 * Parses Qwen3-Coder / Qwen3.5 output as it streams. Content is passed on as soon as it cannot start a call; a call
 * is emitted once it is complete; `end()` settles what is left. However the text is split, the events add up to
 * what {@link parseQwenToolCalls} returns for the whole text.
 *
 * @example
 * const stream = new QwenToolCallStream({ tools });
 * for (const delta of deltas) for (const event of stream.push(delta)) handle(event);
 * for (const event of stream.end()) handle(event);
 */
export class QwenToolCallStream {
  private buffer = "";
  private inBlock = false;
  private readonly context: ReturnType<typeof parserContext>;

  constructor(options: QwenParseOptions = {}) {
    this.context = parserContext(options);
  }

  /** Feeds a delta of model text. */
  push(delta: string): QwenStreamEvent[] {
    this.buffer += delta;
    return this.drain(false);
  }

  /** The text is complete: settles any held text and any unfinished call. */
  end(): QwenStreamEvent[] {
    return this.drain(true);
  }

  private drain(final: boolean): QwenStreamEvent[] {
    const events: QwenStreamEvent[] = [];
    for (;;) {
      if (!this.inBlock) {
        const start = nextBlockStart(this.buffer, 0);
        if (start === -1) {
          const keep = final ? 0 : heldBack(this.buffer);
          const text = this.buffer.slice(0, this.buffer.length - keep);
          if (text !== "") events.push({ type: "content", text });
          this.buffer = this.buffer.slice(this.buffer.length - keep);
          return events;
        }
        if (start > 0) events.push({ type: "content", text: this.buffer.slice(0, start) });
        this.buffer = this.buffer.slice(start);
        this.inBlock = true;
      }
      const block = readQwenBlock(this.buffer, 0, final);
      if (block.status === "incomplete" && !final) return events;
      const content: string[] = [];
      const toolCalls: QwenToolCall[] = [];
      const issues: QwenIssue[] = [];
      const next = consumeBlock(this.buffer, 0, block, this.context, content, toolCalls, issues);
      for (const toolCall of toolCalls) events.push({ type: "tool_call", toolCall });
      for (const issue of issues) events.push({ type: "issue", issue });
      for (const text of content) if (text !== "") events.push({ type: "content", text });
      this.inBlock = false;
      this.buffer = next === -1 ? "" : this.buffer.slice(next);
      if (next === -1) return events;
    }
  }
}
