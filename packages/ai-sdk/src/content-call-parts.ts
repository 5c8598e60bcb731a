import type { ToolCallSyntax } from "@toolcall/core/kit";
import { ContentCallReader, readContentCalls } from "@toolcall/core/kit";
import type { GenerateResult, StreamPart } from "./ai-sdk-types.js";

type Content = GenerateResult["content"];
type Part<T extends StreamPart["type"]> = Extract<StreamPart, { type: T }>;

/** Where content calls are read: the syntaxes, and the request's tools (values typed by schema). */
export interface ContentCallsContext {
  syntaxes: readonly ToolCallSyntax[];
  tools: readonly unknown[];
}

/**
 * A whole answer's text parts with the calls a server left in them read out (core's `readContentCalls`): each text
 * part becomes its reasoning (a `reasoning` part), the rest of its text, and a `tool-call` part per call, in that
 * order; `recovered` maps each recovered call's id to its syntax. The same content comes back when nothing was found.
 *
 * @example
 * const { content, recovered } = readGenerateContentCalls({ content: result.content, context: { syntaxes: [qwen3Coder], tools: [] } });
 */
export function readGenerateContentCalls(args: { content: Content; context: ContentCallsContext }): {
  content: Content;
  recovered: Map<string, string>;
} {
  const recovered = new Map<string, string>();
  if (args.context.syntaxes.length === 0) return { content: args.content, recovered };
  let content: Content | undefined;
  for (const [index, part] of args.content.entries()) {
    if (part.type !== "text" || part.text === "") {
      content?.push(part);
      continue;
    }
    const read = readContentCalls({ text: part.text, ...args.context });
    if (!read.changed) {
      content?.push(part);
      continue;
    }
    content ??= args.content.slice(0, index);
    if (read.reasoning !== "") content.push({ type: "reasoning", text: read.reasoning });
    if (read.content !== null) content.push({ ...part, text: read.content });
    for (const { toolCall, syntax } of read.calls) {
      recovered.set(toolCall.id, syntax);
      content.push({
        type: "tool-call",
        toolCallId: toolCall.id,
        toolName: toolCall.function.name,
        input: toolCall.function.arguments,
      });
    }
  }
  return { content: content ?? args.content, recovered };
}

/**
 * The streamed form of {@link readGenerateContentCalls}: `text-delta` parts go through a `ContentCallReader` per
 * text id; text goes on as soon as no syntax can start a call with it (as the same part when untouched), reasoning
 * as `reasoning-*` parts, and each recovered call as a `tool-call` part handed to `onCall` (the caller's stream
 * decider decides it like any other call). What the readers hold goes on before the text's `text-end`.
 *
 * @example
 * const stage = new ContentCallParts({ context, onCall: (part, syntax) => decider.pushRecovered(part, syntax) });
 */
export class ContentCallParts {
  readonly #context: ContentCallsContext;
  readonly #readers = new Map<string, ContentCallReader>();
  /** How many calls were recovered. */
  found = 0;

  constructor(args: { context: ContentCallsContext }) {
    this.#context = args.context;
  }

  /** Whether this stage reads anything. */
  get active(): boolean {
    return this.#context.syntaxes.length > 0;
  }

  /** One part in; the parts that go on, and the calls recovered (each with its syntax), in order. */
  push(part: StreamPart): (StreamPart | { recovered: Part<"tool-call">; syntax: string })[] {
    if (part.type === "text-delta") {
      const reader = this.#reader(part.id);
      return this.#parts({ id: part.id, events: reader.push(part.delta), own: part });
    }
    if (part.type === "text-end") {
      const reader = this.#readers.get(part.id);
      if (reader === undefined) return [part];
      this.#readers.delete(part.id);
      return [...this.#parts({ id: part.id, events: reader.end(), own: undefined }), part];
    }
    return [part];
  }

  /** The stream ended: what readers of texts never ended hold. */
  end(): (StreamPart | { recovered: Part<"tool-call">; syntax: string })[] {
    const out: (StreamPart | { recovered: Part<"tool-call">; syntax: string })[] = [];
    for (const [id, reader] of this.#readers)
      out.push(...this.#parts({ id, events: reader.end(), own: undefined }));
    this.#readers.clear();
    return out;
  }

  #reader(id: string): ContentCallReader {
    let reader = this.#readers.get(id);
    if (reader === undefined) {
      reader = new ContentCallReader(this.#context);
      this.#readers.set(id, reader);
    }
    return reader;
  }

  #parts(args: {
    id: string;
    events: ReturnType<ContentCallReader["push"]>;
    own: Part<"text-delta"> | undefined;
  }): (StreamPart | { recovered: Part<"tool-call">; syntax: string })[] {
    const { id, events, own } = args;
    const out: (StreamPart | { recovered: Part<"tool-call">; syntax: string })[] = [];
    for (const event of events) {
      switch (event.type) {
        case "content":
          out.push(
            own !== undefined && events.length === 1 && own.delta === event.text
              ? own
              : { type: "text-delta", id, delta: event.text },
          );
          break;
        case "reasoning": {
          const reasoning = `${id}-reasoning`;
          out.push({ type: "reasoning-start", id: reasoning });
          out.push({ type: "reasoning-delta", id: reasoning, delta: event.text });
          out.push({ type: "reasoning-end", id: reasoning });
          break;
        }
        case "tool_call":
          this.found++;
          out.push({
            recovered: {
              type: "tool-call",
              toolCallId: event.call.toolCall.id,
              toolName: event.call.toolCall.function.name,
              input: event.call.toolCall.function.arguments,
            },
            syntax: event.call.syntax,
          });
          break;
        case "issue":
          break;
        default: {
          const never: never = event;
          return never;
        }
      }
    }
    return out;
  }
}
