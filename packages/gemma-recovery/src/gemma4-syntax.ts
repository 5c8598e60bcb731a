import { decodeArguments } from "@toolcall/core";
import type {
  EncodableToolCall,
  SyntaxIssue,
  SyntaxParseOptions,
  SyntaxStream,
  SyntaxStreamEvent,
  SyntaxToolCall,
  ToolCallSyntax,
} from "@toolcall/core/kit";
import { encodeGemmaToolCall } from "./encode-gemma-arguments.js";
import {
  type GemmaIssue,
  type GemmaStreamEvent,
  type GemmaToolCall,
  GemmaToolCallStream,
} from "./gemma-tool-call-stream.js";
import { parseGemmaToolCalls } from "./parse-gemma-tool-calls.js";
import { type ThoughtPiece, ThoughtSplitter } from "./split-thought.js";
import { TOOL_CALL_OPEN } from "./tokens.js";

function withId(call: GemmaToolCall, index: number, options: SyntaxParseOptions): SyntaxToolCall {
  const id = options.createId ? options.createId({ index, name: call.function.name }) : call.id;
  return { id, type: "function", function: { name: call.function.name, arguments: call.function.arguments } };
}

/** The Gemma codes that leave a call in content are errors; a call read without its closing token is an info. */
const asIssue = (issue: GemmaIssue): SyntaxIssue => ({
  ...issue,
  severity: issue.code === "call_unclosed" ? "info" : "error",
  path: [],
});

/**
 * Encodes calls as the Gemma 4 template renders them: `<|tool_call>call:NAME{key:value,…}<tool_call|>` per call.
 *
 * @example
 * encodeGemma4([{ function: { name: "get_weather", arguments: '{"city": "Paris"}' } }]);
 * // '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>'
 */
export function encodeGemma4(calls: readonly EncodableToolCall[]): string {
  return calls
    .map((call) =>
      encodeGemmaToolCall({
        name: call.function.name,
        arguments: decodeArguments(call.function?.arguments, { lossless: true }).arguments,
      }),
    )
    .join("");
}

const asEvents = (pieces: ThoughtPiece[]): SyntaxStreamEvent[] => pieces.map((piece) => ({ ...piece }));

class Gemma4Stream implements SyntaxStream {
  readonly #stream: GemmaToolCallStream;
  readonly #options: SyntaxParseOptions;
  readonly #thought = new ThoughtSplitter();
  #index = 0;

  constructor(options: SyntaxParseOptions) {
    this.#options = options;
    this.#stream = new GemmaToolCallStream({ meter: options.meter });
  }

  #map(events: GemmaStreamEvent[]): SyntaxStreamEvent[] {
    const out: SyntaxStreamEvent[] = [];
    for (const event of events) {
      if (event.type === "content") out.push(...asEvents(this.#thought.push(event.text)));
      else if (event.type === "issue") out.push({ type: "issue", issue: asIssue(event.issue) });
      else {
        // A call is decided whole here: it is announced, its arguments given and ended at once.
        const index = this.#index++;
        const toolCall = withId(event.toolCall, index, this.#options);
        out.push(
          { type: "tool_call_start", index, id: toolCall.id, name: toolCall.function.name },
          { type: "tool_call_delta", index, arguments: toolCall.function.arguments },
          { type: "tool_call_end", index, toolCall },
        );
      }
    }
    return out;
  }

  push(delta: string): SyntaxStreamEvent[] {
    return typeof delta === "string" && delta !== "" ? this.#map(this.#stream.push(delta)) : [];
  }

  end(): SyntaxStreamEvent[] {
    const events = this.#map(this.#stream.end());
    return [...events, ...asEvents(this.#thought.end())];
  }
}

/**
 * Gemma 4 as a `ToolCallSyntax` (the interface of `@toolcall/core` every model syntax implements):
 * {@link parseGemmaToolCalls} and {@link GemmaToolCallStream} behind `parse` and `createStream`, and
 * {@link encodeGemma4}. The thought channel (`<|channel>thought\n…\n<channel|>`) is `reasoning`; a stream
 * announces each call once it is decided, with its arguments in one delta.
 *
 * @example
 * gemma4.parse('<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>').toolCalls[0].function.arguments;
 * // '{"city":"Paris"}'
 */
export const gemma4: ToolCallSyntax = {
  specificationVersion: "1",
  id: "gemma4",
  name: "Gemma 4 (<|tool_call>call:NAME{…}<tool_call|>)",
  startMarkers: [TOOL_CALL_OPEN],
  parse(text, options = {}) {
    const parsed = parseGemmaToolCalls(typeof text === "string" ? text : "", { meter: options.meter });
    // The thought channel, split from the content as the stream splits it.
    const thought = new ThoughtSplitter();
    const pieces = [...thought.push(parsed.content ?? ""), ...thought.end()];
    const content = pieces.flatMap((piece) => (piece.type === "content" ? [piece.text] : [])).join("");
    const reasoning = pieces.flatMap((piece) => (piece.type === "reasoning" ? [piece.text] : [])).join("");
    return {
      toolCalls: parsed.toolCalls.map((call, index) => withId(call, index, options)),
      content: content.trim() === "" ? null : content,
      reasoning: thought.sawThought ? reasoning : null,
      issues: parsed.issues.map(asIssue),
    };
  },
  createStream: (options = {}) => new Gemma4Stream(options),
  encode: encodeGemma4,
};
