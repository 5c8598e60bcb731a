import type { SyntaxIssue, SyntaxStream, SyntaxToolCall, ToolCallSyntax } from "./tool-call-syntax.js";

/** A call recovered from text, with the id of the syntax it was written in. */
export interface ContentCall {
  toolCall: SyntaxToolCall;
  /** The syntax id (`qwen3-coder`, `gemma4`, …): the report names it. */
  syntax: string;
}

/** What streamed text became, in order. */
export type ContentCallEvent =
  | { type: "content"; text: string }
  /** Text a syntax marks as the model's reasoning (`<think>…</think>`, an analysis channel). */
  | { type: "reasoning"; text: string }
  | { type: "tool_call"; call: ContentCall }
  /** Call-like text left in content, and why (the text itself follows as content). */
  | { type: "issue"; syntax: string; issue: SyntaxIssue };

interface SyntaxEntry {
  syntax: string;
  stream: SyntaxStream;
}

/** What {@link readContentCalls} found in a whole text. */
export interface ContentCallsRead {
  calls: ContentCall[];
  /** The text outside calls and reasoning; the text itself when no call was found, `null` when only blanks remain. */
  content: string | null;
  /** The reasoning the syntaxes marked (`""`: none). */
  reasoning: string;
  issues: { syntax: string; issue: SyntaxIssue }[];
}

/** What `readContentCalls` takes: the syntaxes to read, in order, and the request's tools. */
export interface ContentCallsOptions {
  /** The syntaxes to read, in order: content one leaves is read by the next. */
  syntaxes: readonly ToolCallSyntax[];
  /** The request's tools: a syntax that carries values as text types them by schema. */
  tools?: readonly unknown[] | null;
}

/**
 * Reads the calls a server left in a whole answer's text, in each syntax in turn (the content one leaves is read
 * by the next), R10: a call is recovered only where its syntax reads it without doubt; text that does not parse stays
 * as the model wrote it, with the syntax's issue. The same text comes back (`calls: []`) when nothing was found.
 * Work: one parse per syntax, each linear in the text.
 *
 * @example
 * import { qwen3Coder } from "@toolcall/model-formats";
 * const text = "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>";
 * readContentCalls({ text, syntaxes: [qwen3Coder] }).calls[0]?.toolCall.function.name; // "get_weather"
 */
export function readContentCalls(args: ContentCallsOptions & { text: string }): ContentCallsRead {
  const found: ContentCallsRead = { calls: [], content: args.text, reasoning: "", issues: [] };
  for (const syntax of args.syntaxes) {
    const content = found.content;
    if (typeof content !== "string" || content === "") break;
    const result = syntax.parse(content, { tools: args.tools ?? null });
    for (const issue of result.issues) found.issues.push({ syntax: syntax.id, issue });
    const reasoning = typeof result.reasoning === "string" ? result.reasoning : "";
    if (result.toolCalls.length === 0 && reasoning === "") continue;
    for (const toolCall of result.toolCalls) found.calls.push({ toolCall, syntax: syntax.id });
    found.reasoning += reasoning;
    found.content = result.content;
  }
  return found;
}

/**
 * {@link readContentCalls} for streamed text: `push` each piece, `end` once. Content goes on as soon as each syntax
 * knows it cannot start a call (a few characters at most are held); a recovered call comes whole, once its syntax
 * has read all of it (an adapter hands it to its stream decider like any other call). However the text is split,
 * the events add up to what `readContentCalls` finds.
 *
 * @example
 * import { qwen3Coder } from "@toolcall/model-formats";
 * const reader = new ContentCallReader({ syntaxes: [qwen3Coder] });
 * const events = [...reader.push("<tool_call>\n<function=f>\n</function>\n</tool_call>"), ...reader.end()];
 * events.some((event) => event.type === "tool_call"); // true
 */
export class ContentCallReader {
  readonly #streams: SyntaxEntry[];
  #ended = false;

  constructor(options: ContentCallsOptions) {
    this.#streams = options.syntaxes.map((syntax) => ({
      syntax: syntax.id,
      stream: syntax.createStream({ tools: options.tools ?? null }),
    }));
  }

  /** Reads a piece of text; returns what goes on now, in order. */
  push(text: string): ContentCallEvent[] {
    if (this.#ended || text === "") return text === "" ? [] : [{ type: "content", text }];
    return this.#feed(text, false);
  }

  /** The text ended: what the syntaxes held goes on. */
  end(): ContentCallEvent[] {
    if (this.#ended) return [];
    this.#ended = true;
    return this.#feed(undefined, true);
  }

  #feed(text: string | undefined, end: boolean): ContentCallEvent[] {
    const out: ContentCallEvent[] = [];
    if (text !== undefined) this.#pass(0, text, out);
    // Each syntax ends in turn: what the first held goes through the next before the next ends.
    if (end)
      for (let level = 0; level < this.#streams.length; level++) {
        const { syntax, stream } = this.#streams[level] as SyntaxEntry;
        for (const read of stream.end()) this.#route(level, eventsOf(syntax, read), out);
      }
    return out;
  }

  /** Text through the syntaxes from `level` on: content one leaves goes to the next, in place, so order is kept. */
  #pass(level: number, text: string, out: ContentCallEvent[]): void {
    const entry = this.#streams[level];
    if (entry === undefined) {
      out.push({ type: "content", text });
      return;
    }
    for (const read of entry.stream.push(text)) this.#route(level, eventsOf(entry.syntax, read), out);
  }

  #route(level: number, events: readonly ContentCallEvent[], out: ContentCallEvent[]): void {
    for (const event of events) {
      if (event.type === "content") this.#pass(level + 1, event.text, out);
      else out.push(event);
    }
  }
}

function eventsOf(syntax: string, event: ReturnType<SyntaxStream["push"]>[number]): ContentCallEvent[] {
  switch (event.type) {
    case "content":
    case "reasoning":
      return event.text === "" ? [] : [{ type: event.type, text: event.text }];
    case "tool_call_end":
      return [{ type: "tool_call", call: { toolCall: event.toolCall, syntax } }];
    case "tool_call_abort":
    case "issue":
      return [{ type: "issue", syntax, issue: event.issue }];
    case "tool_call_start":
    case "tool_call_delta":
      // A recovered call goes on whole, at its end: its pieces may still be void (`tool_call_abort`).
      return [];
    default: {
      const never: never = event;
      return never;
    }
  }
}
