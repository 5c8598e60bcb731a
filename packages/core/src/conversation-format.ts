import type { Issue } from "./issues.js";
import type { ChatMessage, FinishReason, ToolDefinition } from "./types.js";

/**
 * One conversation of a record, in core's neutral view (OpenAI Chat messages), as an ecosystem's format reads it.
 * Rules run on `messages`; nothing about the record's own shape is lost, because the format writes the record back
 * from its own bytes, not from this view.
 */
export interface FormatConversation {
  messages: ChatMessage[];
  /** The tools the conversation offers, as OpenAI tool definitions. */
  tools?: ToolDefinition[];
  /** Why generation stopped, for a record that is a model's answer (`length` makes broken arguments truncated). */
  finishReason?: FinishReason | null;
  /**
   * True when the record is a model's answer (a completion, a stream): its calls have no results by nature, so
   * they are pending, never missing.
   */
  answer?: boolean;
  /**
   * False when the record holds expected calls, not calls that ran (a benchmark's possible answers, an eval set's
   * expected tool uses): no result is expected for them, so the verdict says nothing about results awaited. Default
   * true. The record engine applies it, for every format alike.
   */
  expectsResults?: boolean;
  /** Where the conversation is in its record, for records that hold several (`choices[1]`). */
  label?: string;
  /** Where a neutral path (message index first) is in the record, as its reader knows it (`messages[3].content[1]`). */
  placeOf?(path: readonly (string | number)[]): string;
}

/**
 * Something wrong with a record's own shape, found while reading it (before any rule of core runs): core's
 * {@link Issue} with the format's own codes (`block_unknown`, `tool_call_unparsable`). `path` leads from the record to
 * the part (`["conversations", 4, "value"]`; `[]` for the whole record); `place` says the same for people.
 */
export interface FormatIssue extends Issue<string> {
  /** Where in the record (`conversations[4].value`). */
  place?: string;
}

/** A record read through a format: its conversations, what is wrong with its shape, and how to write it back. */
export interface FormatReading {
  conversations: FormatConversation[];
  issues: FormatIssue[];
  /**
   * The record with conversations replaced: `replacements[i]` holds the new messages of conversation `i`, or
   * `undefined` to keep it as it is. Everything of the record that the neutral view does not hold (metadata, other
   * blocks, their order, keys) is kept; parts of the record that did not change are the same objects as before.
   * `ok: false` when the format cannot express a change (the caller then keeps the record as it was and says so).
   */
  write(replacements: ReadonlyArray<readonly unknown[] | undefined>): FormatWriteResult;
}

/** What a format's `write` returns: the record in the format's own shapes, or why it cannot be written. */
export type FormatWriteResult = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * An ecosystem's way of storing conversations with tool calls (OpenAI Chat, Anthropic Messages, ShareGPT…), read
 * into core's neutral view and written back losslessly. Each ecosystem's package exports its formats; a tool that
 * reads files (the command line) composes them, detecting one from content or being told which.
 *
 * `unit` says what one record is: a JSON value (a document, an array element, a JSONL line), or a whole file of
 * JSON lines that together hold one session (an agent's transcript, a log of streamed chunks); for a `session`
 * format, `matches` and `read` take the list of line values and `write` gives back a list in which unchanged lines
 * are the same objects.
 *
 * @example
 * const format: ConversationFormat = openaiChatFormat;
 * if (format.matches(value)) {
 *   const reading = format.read(value);
 *   const fixed = sanitizeHistory(reading.conversations[0].messages);
 *   const written = reading.write([fixed.changes.length > 0 ? fixed.messages : undefined]);
 * }
 */
export interface ConversationFormat {
  /** A stable kebab-case id, what `--format` takes (`openai-chat`, `anthropic-messages`). */
  readonly id: string;
  /** A name for people (`OpenAI Chat messages`). */
  readonly name: string;
  /** The shape in a few words, for a message naming what was expected. */
  readonly expected: string;
  readonly unit: "record" | "session";
  /**
   * Detection priority: a format of higher priority is tried first (default 0). A format whose shape is a special
   * case of another's (a Gemini CLI session is a list of messages too) ranks above it; two formats of the same
   * priority that both claim a value make the detection "probable" (docs/decisions.md, "Format detection").
   */
  readonly priority?: number;
  /**
   * A looser look than `matches`: the value is probably in this format though it does not read as one (a key
   * misspelled, a part missing). A refusal then names this format and `--format` with its id.
   */
  resembles?(value: unknown): boolean;
  /** True when the value has this format's shape (cheap: called on samples to detect a file's format). */
  matches(value: unknown): boolean;
  /** Reads a record; never throws, whatever the value. */
  read(value: unknown): FormatReading;
}
