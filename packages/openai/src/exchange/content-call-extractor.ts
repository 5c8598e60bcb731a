import type { Issue } from "@toolcall/core";

/** A tool call found in assistant text, OpenAI-shaped, with its arguments as JSON object text. */
export interface ExtractedToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** Why a call-looking piece of text was left in content (the text stays as the model wrote it): core's one issue shape. */
export type ExtractionIssue = Issue<string>;

/** An issue of a parser that reports only a code and a message, in the one shape (`path` `[]`: the text as a whole). */
export function extractionIssue(issue: {
  code: string;
  message: string;
  severity?: Issue["severity"];
}): ExtractionIssue {
  return { code: issue.code, severity: issue.severity ?? "error", message: issue.message, path: [] };
}

/** What a streaming extractor decides from the text it was fed so far. */
export type ExtractionEvent =
  | { type: "content"; text: string }
  /** Text the syntax marks as the model's reasoning (`<think>…</think>`, an analysis channel). */
  | { type: "reasoning"; text: string }
  | { type: "tool_call"; toolCall: ExtractedToolCall }
  | { type: "issue"; issue: ExtractionIssue };

/** What an extractor may use besides the text: the request's tools (a parser that types values by schema needs them). */
export interface ExtractionContext {
  tools: readonly unknown[];
}

/**
 * Turns a model's native tool-call syntax, left in `content` by a server that did not structure it, into OpenAI tool
 * calls. One implementation per syntax (`gemma` now; a Qwen3-Coder XML one slots in the same way), chosen with
 * `--content-calls`. Text that does not parse is left in content, never guessed.
 *
 * @example
 * const extractor: ContentCallExtractor = gemmaContentCalls;
 * extractor.parse("<|tool_call>call:f{a:1}<tool_call|>", { tools: [] }).toolCalls; // [{ function: { name: "f", … } }]
 */
export interface ContentCallExtractor {
  /** The name `--content-calls` takes. */
  readonly name: string;
  /** The id of the tool-call syntax it reads (`qwen3-coder`, `gemma4`, …), as the repair summary names it. */
  readonly syntax: string;
  /** Whole text: the calls found and the text without them (`null` when only whitespace is left). */
  parse(
    content: string,
    context: ExtractionContext,
  ): {
    toolCalls: readonly ExtractedToolCall[];
    content: string | null;
    /** The reasoning the syntax marks, when it has any (`null` or absent: none). */
    reasoning?: string | null;
    issues: ExtractionIssue[];
  };
  /** Streamed text: `push` each delta, `end` once; plain text comes back as soon as it cannot start a call. */
  createStream(context: ExtractionContext): {
    push(delta: string): ExtractionEvent[];
    end(): ExtractionEvent[];
  };
}
