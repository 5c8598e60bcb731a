import type {
  SyntaxIssue,
  SyntaxParseResult,
  SyntaxStream,
  SyntaxToolCall,
  ToolCallSyntax,
} from "./tool-call-syntax.js";

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
  /** A syntax read something of its own ({@link syntaxReadText}); `false`: `content` is the text as it came. */
  changed: boolean;
}

/** What `readContentCalls` takes: the syntaxes to read, in order, and the request's tools. */
export interface ContentCallsOptions {
  /** The syntaxes to read, in order: content one leaves is read by the next. */
  syntaxes: readonly ToolCallSyntax[];
  /** The request's tools: a syntax that carries values as text types them by schema. */
  tools?: readonly unknown[] | null;
}

/**
 * Whether a syntax's whole reading of `text` changes it, the one rule whole and streamed content-call reading share
 * (R10): it read a call, a reasoning block (an empty one too: `<|channel>thought\n<channel|>` is syntax, as the
 * syntax's own stream drops it), or other markup it drops, so its content differs from the text. Otherwise the text
 * stays as it came, byte for byte (a parse gives `null` for blank content; the text keeps its blanks).
 *
 * @example
 * import { gemma4 } from "@toolcall/model-formats";
 * const text = "<|channel>thought\n<channel|>Hello!";
 * syntaxReadText({ text, result: gemma4.parse(text) }); // true: the content is "Hello!"
 * syntaxReadText({ text: "Hello!", result: gemma4.parse("Hello!") }); // false
 */
export function syntaxReadText(args: {
  text: string;
  /** A syntax's whole reading (its `parse`); `reasoning` absent or `null`: none. */
  result: Pick<SyntaxParseResult, "content"> & { toolCalls: readonly unknown[]; reasoning?: string | null };
}): boolean {
  const { text, result } = args;
  if (result.toolCalls.length > 0 || typeof result.reasoning === "string") return true;
  return result.content === null ? text.trim() !== "" : result.content !== text;
}

/**
 * Reads the calls a server left in a whole answer's text, in each syntax in turn (the content one leaves is read
 * by the next), R10: a call is recovered only where its syntax reads it without doubt; text that does not parse stays
 * as the model wrote it, with the syntax's issue. The same text comes back (`calls: []`) when no syntax read
 * anything of its own ({@link syntaxReadText}). Whole and streamed reading are one: with one syntax this is its
 * `parse`; with several, the {@link ContentCallReader} fed the text at once, so calls come in the order they were
 * written whatever syntax wrote them. Work: one parse per syntax, each linear in the text.
 *
 * @example
 * import { qwen3Coder } from "@toolcall/model-formats";
 * const text = "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>";
 * readContentCalls({ text, syntaxes: [qwen3Coder] }).calls[0]?.toolCall.function.name; // "get_weather"
 */
export function readContentCalls(args: ContentCallsOptions & { text: string }): ContentCallsRead {
  const { text, syntaxes } = args;
  const found: ContentCallsRead = { calls: [], content: text, reasoning: "", issues: [], changed: false };
  if (typeof text !== "string" || text === "" || syntaxes.length === 0) return found;
  if (syntaxes.length > 1) {
    const reader = new ContentCallReader(args);
    return foldContentEvents(text, [...reader.push(text), ...reader.end()]);
  }
  const syntax = syntaxes[0] as ToolCallSyntax;
  const result = syntax.parse(text, { tools: args.tools ?? null });
  for (const issue of result.issues) found.issues.push({ syntax: syntax.id, issue });
  if (!syntaxReadText({ text, result })) return found;
  found.changed = true;
  for (const toolCall of result.toolCalls) found.calls.push({ toolCall, syntax: syntax.id });
  found.reasoning = result.reasoning ?? "";
  found.content = result.content;
  return found;
}

/**
 * What a {@link ContentCallReader}'s events add up to, as {@link readContentCalls} gives it for the whole `text`
 * they came from: the content joined (the text itself when it came through untouched; `null` when only blanks
 * remain of a text the syntaxes read).
 *
 * @example
 * import { gemma4 } from "@toolcall/model-formats";
 * const reader = new ContentCallReader({ syntaxes: [gemma4] });
 * const text = "<|channel>thought\n<channel|>Hello!";
 * foldContentEvents(text, [...reader.push(text), ...reader.end()]).content; // "Hello!"
 */
export function foldContentEvents(text: string, events: readonly ContentCallEvent[]): ContentCallsRead {
  const found: ContentCallsRead = { calls: [], content: null, reasoning: "", issues: [], changed: false };
  let content = "";
  for (const event of events) {
    if (event.type === "content") content += event.text;
    else if (event.type === "reasoning") found.reasoning += event.text;
    else if (event.type === "tool_call") found.calls.push(event.call);
    else found.issues.push({ syntax: event.syntax, issue: event.issue });
  }
  found.changed = content !== text || found.calls.length > 0 || found.reasoning !== "";
  found.content = found.changed ? (content.trim() === "" ? null : content) : text;
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
