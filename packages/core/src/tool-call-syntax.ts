import type { Issue } from "./issues.js";
import type { WorkMeter } from "./work-budget.js";

/**
 * The contract every model family's tool-call syntax implements (Hermes, GLM, Kimi, DeepSeek, Mistral, Llama,
 * gpt-oss in `@toolcall/model-formats`; Qwen3-Coder in `@toolcall/qwen-templates`; Gemma 4 in
 * `@toolcall/gemma-recovery`). Types only: core holds no parser. It lives here, as `RepairRule` does, so that
 * packages that may not import each other implement one interface, checked by the compiler.
 */

/**
 * Where a parser adds the work it does: characters examined. Tests count work with it (linear time), never a clock.
 *
 * @example
 * const work: WorkCounter = { scanned: 0 };
 * hermes.parse(text, { work });
 * work.scanned <= 3 * text.length; // true: each character is examined a bounded number of times
 */
export interface WorkCounter {
  scanned: number;
}

/**
 * A call read from model text, in OpenAI's shape: `arguments` is JSON object text (core's wire text).
 *
 * @example
 * const call: SyntaxToolCall = { id: "call_1", type: "function", function: { name: "f", arguments: "{}" } };
 */
export interface SyntaxToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/**
 * Why part of the text was read the way it was: core's {@link Issue} with the syntax's own codes (snake_case, stable,
 * no family prefix). `path` is `[]` (the text as a whole); `raw` holds text left in content exactly as the model wrote
 * it, `tool` and `parameter` name the call and parameter when the issue is about one.
 *
 * @example
 * const issue: SyntaxIssue = { code: "call_truncated", severity: "error", message: "the text ends inside a call", path: [], raw: "<tool_call>{" };
 */
export interface SyntaxIssue extends Issue<string> {
  raw?: string;
  tool?: string;
  parameter?: string;
}

/**
 * Options of a parse, whole or streamed.
 *
 * @example
 * const options: SyntaxParseOptions = { tools, startInReasoning: true };
 */
export interface SyntaxParseOptions {
  /** The tools offered (OpenAI `{ type, function: { name, parameters } }` or bare `{ name, parameters }`): they type values where the syntax carries text. */
  tools?: readonly unknown[] | null;
  /** Makes the id of a call whose syntax carries none (default: the family's own, usually core's `randomCallId`). */
  createId?: (call: { index: number; name: string }) => string;
  /** The prompt already opened the reasoning block (a generation prompt ending in `<think>`): the text starts inside it. */
  startInReasoning?: boolean;
  /** Adds the characters examined. */
  work?: WorkCounter;
  /**
   * The work meter the parser charges (core's work budget). Default: the parser's own, whose limit grows by
   * `WORK_UNITS_PER_CHAR` units for each character pushed; a caller's meter keeps the caller's limit. Once it runs
   * out, the rest of the text is content, unread, with a `budget_exhausted` issue.
   */
  meter?: WorkMeter;
}

/**
 * What a whole parse found. Its lists are readonly: a plain answer shares one frozen empty list (`EMPTY_LIST`), so a
 * caller that wants to add to them builds a new list.
 *
 * @example
 * const result: SyntaxParseResult = { toolCalls: [], content: "Hello", reasoning: null, issues: [] };
 */
export interface SyntaxParseResult {
  readonly toolCalls: readonly SyntaxToolCall[];
  /** The text outside calls and reasoning; `null` when only whitespace remains. */
  content: string | null;
  /** The reasoning text; `null` when there is none. */
  reasoning: string | null;
  readonly issues: readonly SyntaxIssue[];
}

/**
 * What a stream gives as text arrives. A call is announced by `tool_call_start` once its name is known, its
 * argument text follows in `tool_call_delta`s that add up to the final `arguments`, and `tool_call_end` carries the
 * whole call; a call that turns out malformed ends with `tool_call_abort` instead (its deltas are void, its text
 * follows as `content`, and the next call takes its index).
 *
 * @example
 * const event: SyntaxStreamEvent = { type: "tool_call_delta", index: 0, arguments: '{"city": ' };
 */
export type SyntaxStreamEvent =
  | { type: "content"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "tool_call_start"; index: number; id: string; name: string }
  | { type: "tool_call_delta"; index: number; arguments: string }
  | { type: "tool_call_end"; index: number; toolCall: SyntaxToolCall }
  | { type: "tool_call_abort"; index: number; issue: SyntaxIssue }
  | { type: "issue"; issue: SyntaxIssue };

/**
 * A streaming parser: however the text is split into deltas, the events add up to what `parse` returns.
 *
 * @example
 * const stream = hermes.createStream({ tools });
 * for (const delta of deltas) handle(stream.push(delta));
 * handle(stream.end());
 */
export interface SyntaxStream {
  push(delta: string): SyntaxStreamEvent[];
  end(): SyntaxStreamEvent[];
}

/**
 * A call to encode: OpenAI-shaped, `arguments` as wire text or as a mapping.
 *
 * @example
 * const call: EncodableToolCall = { id: "call_1", function: { name: "f", arguments: '{"a": 1}' } };
 */
export interface EncodableToolCall {
  id?: string | null;
  type?: string;
  function: { name: string; arguments?: unknown };
}

/**
 * One model family's tool-call syntax: parse, stream, encode. Version 1.
 *
 * @example
 * const syntax: ToolCallSyntax = hermes; // from "@toolcall/model-formats/hermes"
 * syntax.parse('<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>').toolCalls[0].function.name; // "f"
 */
export interface ToolCallSyntax {
  /** The version of this interface the syntax implements. */
  readonly specificationVersion: "1";
  /** A stable kebab-case id (`hermes`, `glm45`, `qwen3-coder`, …). */
  readonly id: string;
  /** The family, in words. */
  readonly name: string;
  /** The texts that can start a call: text holding none of them holds no call (what a quick `indexOf` looks for). */
  readonly startMarkers: readonly string[];
  /** Reads calls, content and reasoning out of a whole text. Total: never throws. */
  parse(text: string, options?: SyntaxParseOptions): SyntaxParseResult;
  /** A streaming parser with the same rules. */
  createStream(options?: SyntaxParseOptions): SyntaxStream;
  /** The calls as the family's chat template renders them in an assistant turn. */
  encode(calls: readonly EncodableToolCall[]): string;
}
