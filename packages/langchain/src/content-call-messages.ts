import type { AIMessage, BaseMessage, ToolCallChunk } from "@langchain/core/messages";
import {
  ContentCallReader,
  readContentCalls,
  type SyntaxToolCall,
  type ToolCallSyntax,
} from "@toolcall/core/kit";
import { createAIMessage } from "./from-neutral-messages.js";
import { isAIMessageLike } from "./message-type.js";

/** Where content calls are read: the syntaxes, and the request's tools (values typed by schema). */
export interface ContentCallsContext {
  syntaxes: readonly ToolCallSyntax[];
  tools?: readonly unknown[];
}

function parsedArgs(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * An AI message with the calls a server left in its text read out (core's `readContentCalls`): its content keeps
 * the rest, the calls join its `tool_calls` and the provider-shaped `additional_kwargs.tool_calls` (so they are
 * decided like any other), reasoning a syntax marks goes to `additional_kwargs.reasoning_content`. `recovered` maps
 * each recovered call's id to its syntax; the message itself comes back when nothing was found.
 *
 * @example
 * const { message, recovered } = readMessageContentCalls({ message: aiMessage, context: { syntaxes: [qwen3Coder] } });
 */
export function readMessageContentCalls(args: { message: BaseMessage; context: ContentCallsContext }): {
  message: BaseMessage;
  recovered: Map<string, string>;
} {
  const recovered = new Map<string, string>();
  const { message, context } = args;
  if (context.syntaxes.length === 0 || !isAIMessageLike(message)) return { message, recovered };
  const ai = message as AIMessage;
  if (typeof ai.content !== "string" || ai.content === "") return { message, recovered };
  const read = readContentCalls({
    text: ai.content,
    syntaxes: context.syntaxes,
    tools: context.tools ?? null,
  });
  if (!read.changed) return { message, recovered };
  for (const { toolCall, syntax } of read.calls) recovered.set(toolCall.id, syntax);
  const calls = read.calls.map((call) => call.toolCall);
  const additional = { ...(ai.additional_kwargs ?? {}) } as Record<string, unknown>;
  const own = Array.isArray(additional.tool_calls) ? (additional.tool_calls as unknown[]) : [];
  if (read.reasoning !== "")
    additional.reasoning_content = `${typeof additional.reasoning_content === "string" ? additional.reasoning_content : ""}${read.reasoning}`;
  const next = createAIMessage(
    {
      content: read.content ?? "",
      ...(ai.id === undefined ? {} : { id: ai.id }),
      additional_kwargs: additional,
      response_metadata: { ...(ai.response_metadata ?? {}) },
      ...(ai.usage_metadata === undefined ? {} : { usage_metadata: ai.usage_metadata }),
      tool_calls: [
        ...(ai.tool_calls ?? []),
        ...calls.map((call) => ({
          id: call.id,
          name: call.function.name,
          args: parsedArgs(call.function.arguments),
          type: "tool_call" as const,
        })),
      ],
      invalid_tool_calls: ai.invalid_tool_calls ?? [],
    },
    [...own, ...calls],
  );
  return { message: next, recovered };
}

/**
 * The streamed form: each chunk's text goes through a `ContentCallReader`; `push` gives the text that goes on now
 * and each call recovered as one whole tool-call fragment (at an index after every one the stream used), which the
 * stream's decider then decides like any other call.
 *
 * @example
 * const text = new ContentCallChunks({ context: { syntaxes: [qwen3Coder] } });
 * const { content, fragments } = text.push({ text: chunk.content, nextIndex });
 */
export class ContentCallChunks {
  readonly #reader: ContentCallReader | undefined;
  /** Each recovered call's id and the syntax it was written in. */
  readonly recovered = new Map<string, string>();

  constructor(args: { context: ContentCallsContext }) {
    this.#reader =
      args.context.syntaxes.length === 0
        ? undefined
        : new ContentCallReader({ syntaxes: args.context.syntaxes, tools: args.context.tools ?? null });
  }

  /** Whether this stage reads anything. */
  get active(): boolean {
    return this.#reader !== undefined;
  }

  /** A piece of text (`undefined`: the stream ended); `nextIndex`: the first index no call of the stream used. */
  push(args: { text: string | undefined; nextIndex: number }): {
    content: string;
    reasoning: string;
    fragments: ToolCallChunk[];
  } {
    const reader = this.#reader;
    if (reader === undefined) return { content: args.text ?? "", reasoning: "", fragments: [] };
    const events = args.text === undefined ? reader.end() : reader.push(args.text);
    let content = "";
    let reasoning = "";
    let index = args.nextIndex;
    const fragments: ToolCallChunk[] = [];
    for (const event of events) {
      if (event.type === "content") content += event.text;
      else if (event.type === "reasoning") reasoning += event.text;
      else if (event.type === "tool_call") {
        const call: SyntaxToolCall = event.call.toolCall;
        this.recovered.set(call.id, event.call.syntax);
        fragments.push({
          index: index++,
          id: call.id,
          name: call.function.name,
          args: call.function.arguments,
          type: "tool_call_chunk",
        });
      }
    }
    return { content, reasoning, fragments };
  }
}
