import type { ContentCallEvent, ToolCallSyntax } from "@toolcall/core/kit";
import { ContentCallReader, isPlainObject, randomCallId } from "@toolcall/core/kit";

type Fields = Record<string, unknown>;

/** A call read from a `text` block, as the `tool_use` block it became. */
export interface RecoveredToolUse {
  /** The new block's index in the message's content. */
  index: number;
  /** The fresh `toolu_…` id it was given. */
  toolUseId: string;
  name: string;
  /** The syntax id the call was written in (`qwen3-coder`, `gemma4`, …). */
  syntax: string;
}

/**
 * What a text block becomes, one step at a time, for its `sub`-th new block: `start` (the block, text empty),
 * `delta` (a Messages API delta: `text_delta`, `thinking_delta`, `input_json_delta`), `stop`. A `start` of a
 * `tool_use` block carries the call it holds.
 */
export type TextBlockStep =
  | { type: "start"; sub: number; block: Fields; call?: Omit<RecoveredToolUse, "index"> }
  | { type: "delta"; sub: number; delta: Fields }
  | { type: "stop"; sub: number };

/** Where calls are read: the syntaxes, and the request's tools (values typed by schema). */
export interface TextBlockCallsOptions {
  syntaxes: readonly ToolCallSyntax[];
  tools?: readonly unknown[] | null;
  /** The block as its `content_block_start` (or a whole answer) gave it. */
  block: Fields;
}

/** A fresh Messages API tool id: `toolu_` and 24 letters and digits, as core's `randomCallId` draws them. */
function freshToolUseId(): string {
  return `toolu_${randomCallId().slice("call_".length)}`;
}

/**
 * One `text` block read for the calls a server left in it, whole or streamed (core's `ContentCallReader`, the reader
 * every door uses: text goes on as soon as no syntax can start a call with it). The block becomes, in the order
 * the text had them, `text` blocks for the text between calls, a `thinking` block for text a syntax marks as
 * reasoning, and a `tool_use` block with a fresh `toolu_` id per call. A stretch of text that is only blank, once a
 * call or reasoning was read, is dropped; a block in which nothing was read comes out as it came. However the text
 * is split, the steps add up to the same blocks.
 *
 * @example
 * import { qwen3Coder } from "@toolcall/model-formats";
 * const calls = new TextBlockCalls({ syntaxes: [qwen3Coder], block: { type: "text", text: "" } });
 * const steps = [...calls.push("Hi.<tool_call>\n<function=f>\n</function>\n</tool_call>"), ...calls.end()];
 * steps.filter((step) => step.type === "start").length; // 2: a text block, then a tool_use block
 */
export class TextBlockCalls {
  readonly #reader: ContentCallReader;
  readonly #block: Fields;
  #open: "text" | "thinking" | "tool_use" | undefined;
  /** Blank text not yet sent: it opens a text block only once text that is not blank follows. */
  #blank = "";
  #steps: TextBlockStep[] = [];
  #ended = false;
  /** How many blocks it became so far. */
  count = 0;
  /** Whether a call or reasoning was read (the block changed). */
  found = false;
  /** How many calls were read. */
  calls = 0;
  /** The length of the text pushed, and of the content the reader handed back. */
  #pushed = 0;
  #content = 0;

  constructor(options: TextBlockCallsOptions) {
    this.#reader = new ContentCallReader({ syntaxes: options.syntaxes, tools: options.tools ?? null });
    this.#block = options.block;
  }

  /** A piece of the block's text; returns the steps that go on now. */
  push(text: string): TextBlockStep[] {
    this.#steps = [];
    if (this.#ended) return this.#steps;
    this.#pushed += text.length;
    this.#read(this.#reader.push(text));
    return this.#steps;
  }

  /** The block ends: what the reader held goes on, and the last block stops. */
  end(): TextBlockStep[] {
    this.#steps = [];
    if (this.#ended) return this.#steps;
    this.#ended = true;
    this.#read(this.#reader.end());
    if (!this.found && this.#open === undefined) {
      // Nothing read and nothing sent: the block as it came (blank or empty included).
      this.#start({ ...this.#block, text: "" }, "text");
      if (this.#blank !== "") this.#delta({ type: "text_delta", text: this.#blank });
    }
    this.#blank = "";
    this.#close();
    return this.#steps;
  }

  /**
   * Whether the blocks differ from the block as it came: a call or reasoning was read, or a syntax kept text back
   * as its own (an empty thought channel), so the content is shorter than the text.
   */
  get changed(): boolean {
    return this.found || this.#content !== this.#pushed;
  }

  /** The sub-block other deltas of the block (`citations_delta`) belong to: the open text block, opened if need be. */
  textBlock(): { sub: number; steps: TextBlockStep[] } {
    this.#steps = [];
    if (this.#open !== "text") this.#contentText("", true);
    return { sub: this.count - 1, steps: this.#steps };
  }

  #read(events: readonly ContentCallEvent[]): void {
    for (const event of events) {
      if (event.type === "content") {
        this.#content += event.text.length;
        this.#contentText(event.text, false);
      } else if (event.type === "reasoning") this.#reasoning(event.text);
      else if (event.type === "tool_call") this.#call(event.call.toolCall, event.call.syntax);
    }
  }

  #contentText(text: string, force: boolean): void {
    if (this.#open === "text") {
      if (text !== "") this.#delta({ type: "text_delta", text });
      return;
    }
    // Blank so far: the text opens a block only once it is not blank (blank before it stays in front).
    const blank = this.#blank + text;
    if (!force && text.trim() === "") {
      this.#blank = blank;
      return;
    }
    this.#blank = "";
    this.#close();
    this.#start({ ...this.#block, text: "" }, "text");
    if (blank !== "") this.#delta({ type: "text_delta", text: blank });
  }

  #reasoning(text: string): void {
    this.found = true;
    this.#blank = "";
    if (this.#open !== "thinking") {
      this.#close();
      this.#start({ type: "thinking", thinking: "", signature: "" }, "thinking");
    }
    this.#delta({ type: "thinking_delta", thinking: text });
  }

  #call(toolCall: { function: { name: string; arguments: string } }, syntax: string): void {
    let input: unknown;
    try {
      input = JSON.parse(toolCall.function.arguments);
    } catch {
      input = undefined;
    }
    // A syntax hands JSON object text; anything else cannot be a `tool_use` block's input.
    if (!isPlainObject(input)) return;
    this.found = true;
    this.calls++;
    this.#blank = "";
    this.#close();
    const id = freshToolUseId();
    const name = toolCall.function.name;
    this.#start({ type: "tool_use", id, name, input: {} }, "tool_use", { toolUseId: id, name, syntax });
    this.#delta({ type: "input_json_delta", partial_json: toolCall.function.arguments });
    this.#close();
  }

  #start(
    block: Fields,
    kind: "text" | "thinking" | "tool_use",
    call?: Omit<RecoveredToolUse, "index">,
  ): void {
    this.#open = kind;
    this.#steps.push({ type: "start", sub: this.count++, block, ...(call === undefined ? {} : { call }) });
  }

  #delta(delta: Fields): void {
    this.#steps.push({ type: "delta", sub: this.count - 1, delta });
  }

  #close(): void {
    if (this.#open === undefined) return;
    this.#open = undefined;
    this.#steps.push({ type: "stop", sub: this.count - 1 });
  }
}
