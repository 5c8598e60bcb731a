import type { SyntaxIssue, SyntaxStreamEvent, SyntaxToolCall } from "@toolcall/core/kit";
import { isSpaceCode } from "./reader.js";

/** An issue as a parser finds it: the path is the text as a whole (`[]`) unless the parser says more. */
export type IssueFound = Omit<SyntaxIssue, "path"> & { path?: SyntaxIssue["path"] };

function withPath(found: IssueFound): SyntaxIssue {
  return found.path === undefined ? { ...found, path: [] } : (found as SyntaxIssue);
}

export type Channel = "content" | "reasoning";

/** What a template writes before a call: one text, or alternatives (longest first), of which one trailing match is dropped. */
export type Separator = string | readonly string[];

/** The length of the separator `text` ends with (the first alternative that matches), or 0. */
function separatorLength(text: string, separator: Separator): number {
  if (typeof separator === "string")
    return separator !== "" && text.endsWith(separator) ? separator.length : 0;
  for (const one of separator) if (one !== "" && text.endsWith(one)) return one.length;
  return 0;
}

function trailingSpace(text: string): number {
  let k = text.length;
  while (k > 0 && isSpaceCode(text.charCodeAt(k - 1))) k--;
  return text.length - k;
}

/**
 * Builds a stream's events. Trailing whitespace of content and reasoning is held until the next visible character
 * or marker: it may be the separator a template writes before a call or a closing tag (one `\n`), which is syntax,
 * not text. A call's argument deltas are checked against its final arguments: they always add up to them.
 */
export class Output {
  #events: SyntaxStreamEvent[] = [];
  /** Called when a call ends or goes back to content (the reader's safety net starts afresh). */
  onCommit: () => void = () => {};
  #held: Record<Channel, string> = { content: "", reasoning: "" };
  /** The index the next call gets. */
  index = 0;
  #call: {
    index: number;
    id: string;
    name: string;
    sent: string;
    channel: Channel;
    before: string;
    separator: Separator;
  } | null = null;

  /** Text for a channel; its trailing whitespace is held. */
  text(channel: Channel, text: string): void {
    if (text === "") return;
    const space = trailingSpace(text);
    if (space === text.length) {
      this.#held[channel] += text;
      return;
    }
    this.#push(channel, this.#held[channel] + text.slice(0, text.length - space));
    this.#held[channel] = space === 0 ? "" : text.slice(text.length - space);
  }

  /** The held whitespace of `channel` ends here: one trailing `separator` in it is syntax and dropped; the rest is sent. */
  separator(channel: Channel, separator: Separator): void {
    let held = this.#held[channel];
    held = held.slice(0, held.length - separatorLength(held, separator));
    this.#held[channel] = "";
    this.#push(channel, held);
  }

  /** Opens a reasoning block: the result has reasoning (possibly empty) from here on. */
  openReasoning(): void {
    this.#events.push({ type: "reasoning", text: "" });
  }

  #push(channel: Channel, text: string): void {
    if (text === "") return;
    const last = this.#events[this.#events.length - 1];
    if (last !== undefined && last.type === channel) last.text += text;
    else this.#events.push({ type: channel, text });
  }

  /**
   * A call whose name is known begins. The whitespace held in `channel` before it waits for the call's end: there
   * one trailing `separator` is dropped as syntax; if the call is aborted, all of it is sent back with its text.
   */
  start(name: string, id: string, channel: Channel = "content", separator: Separator = ""): void {
    const before = this.#held[channel];
    this.#held[channel] = "";
    this.#call = { index: this.index, id, name, sent: "", channel, before, separator };
    this.#events.push({ type: "tool_call_start", index: this.index, id, name });
  }

  get inCall(): boolean {
    return this.#call !== null;
  }

  /** Argument text known to begin the final arguments. */
  delta(text: string): void {
    const call = this.#call;
    if (call === null || text === "") return;
    call.sent += text;
    const last = this.#events[this.#events.length - 1];
    if (last?.type === "tool_call_delta" && last.index === call.index) last.arguments += text;
    else this.#events.push({ type: "tool_call_delta", index: call.index, arguments: text });
  }

  /** The call is complete with these arguments; the deltas not yet sent are sent first. */
  end(args: string): SyntaxToolCall | undefined {
    const call = this.#call;
    if (call === null) return undefined;
    if (args.startsWith(call.sent)) this.delta(args.slice(call.sent.length));
    const toolCall: SyntaxToolCall = {
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: args },
    };
    this.#events.push({ type: "tool_call_end", index: call.index, toolCall });
    const { before, separator } = call;
    this.#push(call.channel, before.slice(0, before.length - separatorLength(before, separator)));
    this.#call = null;
    this.index++;
    this.onCommit();
    return toolCall;
  }

  /** The call that began (in `channel`, if it had not) is void: its text goes back there, exactly as written. */
  abort(found: IssueFound, raw: string, channel: Channel = "content"): void {
    const issue = withPath(found);
    const call = this.#call;
    let target = channel;
    if (call !== null) {
      this.#events.push({ type: "tool_call_abort", index: call.index, issue });
      target = call.channel;
      this.#push(target, call.before);
    } else this.#events.push({ type: "issue", issue });
    this.#call = null;
    this.separator(target, "");
    this.text(target, raw);
    this.onCommit();
  }

  issue(found: IssueFound): void {
    this.#events.push({ type: "issue", issue: withPath(found) });
  }

  /** Sends everything held (the end of the text). */
  finish(): void {
    this.separator("reasoning", "");
    this.separator("content", "");
  }

  /** The events so far, handed over once. */
  take(): SyntaxStreamEvent[] {
    const events = this.#events;
    this.#events = [];
    return events;
  }
}
