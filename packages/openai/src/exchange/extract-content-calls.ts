import { runSteps, syntaxReadText } from "@toolcall/core/kit";
import type { ChatCompletion, ChatCompletionChunk } from "openai/resources/chat/completions";
import type {
  ContentCallExtractor,
  ExtractedToolCall,
  ExtractionContext,
  ExtractionEvent,
  ExtractionIssue,
} from "./content-call-extractor.js";
import type { ChunkStep } from "./repair-sse-stream.js";

/** Told once for each call recovered from content and each piece of call-like text left there. */
export type ExtractionReport =
  /** A call recovered: its index among the choice's calls, the call, and the syntax it was written in. */
  | { kind: "tool_call"; extractor: string; syntax: string; index: number; toolCall: ExtractedToolCall }
  | { kind: "issue"; extractor: string; issue: ExtractionIssue };

type Message = ChatCompletion.Choice["message"];
type ChunkChoice = ChatCompletionChunk.Choice;
type DeltaToolCall = ChatCompletionChunk.Choice.Delta.ToolCall;

/**
 * Recovers native tool calls left in the content of a whole Chat Completions response: each choice's calls are
 * appended to its `tool_calls`, its content keeps the rest, and `finish_reason: "stop"` becomes `"tool_calls"`
 * when calls were found. The same object comes back when nothing was found.
 *
 * @example
 * extractCompletionContentCalls({ completion, extractors: [gemmaContentCalls], context: { tools: [] } });
 */
export function extractCompletionContentCalls(args: ExtractCompletionArgs): ChatCompletion {
  return runSteps(extractCompletionContentCallsSteps(args));
}

interface ExtractCompletionArgs {
  completion: ChatCompletion;
  extractors: readonly ContentCallExtractor[];
  context: ExtractionContext;
  onReport?: (report: ExtractionReport) => void;
}

/**
 * {@link extractCompletionContentCalls} in steps: one extractor over one choice's content per step, each yield
 * saying how many characters that was (the weighted steps `repairResponseBodySteps` takes as `prepare`).
 *
 * @example
 * const steps = extractCompletionContentCallsSteps({ completion, extractors: [gemmaContentCalls], context });
 * let next = steps.next();
 * while (!next.done) next = steps.next();
 * next.value; // what extractCompletionContentCalls gives
 */
export function* extractCompletionContentCallsSteps(
  args: ExtractCompletionArgs,
): Generator<number, ChatCompletion, void> {
  if (!Array.isArray(args.completion.choices)) return args.completion;
  let changed = false;
  const choices: ChatCompletion.Choice[] = [];
  for (const choice of args.completion.choices) {
    let message: Message | undefined = choice.message;
    let found = 0;
    let read = false;
    for (const extractor of args.extractors) {
      const content = message?.content;
      if (typeof content !== "string" || content === "") continue;
      const result = extractor.parse(content, args.context);
      yield content.length;
      for (const issue of result.issues) args.onReport?.({ kind: "issue", extractor: extractor.name, issue });
      // Core's one rule for whole and streamed reading: an empty thought channel is syntax too.
      if (!syntaxReadText({ text: content, result })) continue;
      read = true;
      const reasoning = typeof result.reasoning === "string" && result.reasoning !== "";
      const before = (message as Message).tool_calls?.length ?? 0;
      for (const [i, toolCall] of result.toolCalls.entries())
        args.onReport?.({
          kind: "tool_call",
          extractor: extractor.name,
          syntax: extractor.syntax,
          index: before + i,
          toolCall,
        });
      found += result.toolCalls.length;
      message = withRead(message as Message, {
        content: result.content,
        toolCalls: result.toolCalls,
        reasoning: reasoning ? (result.reasoning as string) : "",
      });
    }
    if (!read) {
      choices.push(choice);
      continue;
    }
    changed = true;
    choices.push({
      ...choice,
      message: message as Message,
      finish_reason:
        found > 0 && choice.finish_reason === "stop" ? ("tool_calls" as const) : choice.finish_reason,
    });
  }
  return changed ? { ...args.completion, choices } : args.completion;
}

/** A message with what its content became: calls added after its own (none: no `tool_calls` key added). */
function withRead(
  message: Message,
  read: { content: string | null; toolCalls: readonly ExtractedToolCall[]; reasoning: string },
): Message {
  const next: Message = { ...message, content: read.content };
  if (read.toolCalls.length > 0) next.tool_calls = [...(message.tool_calls ?? []), ...read.toolCalls];
  if (read.reasoning !== "")
    (next as Message & { reasoning_content?: string }).reasoning_content =
      `${(message as { reasoning_content?: unknown }).reasoning_content ?? ""}${read.reasoning}`;
  return next;
}

interface ChoiceState {
  streams: Array<{
    extractor: ContentCallExtractor;
    stream: ReturnType<ContentCallExtractor["createStream"]>;
  }>;
  /** The index the next recovered call gets: after every index the server used. */
  nextIndex: number;
  found: number;
  /** The choice finished: its extractors were ended. */
  finished: boolean;
}

/** Runs text through the chain of extractors: content left by one is fed to the next. */
function feed(
  state: ChoiceState,
  text: string | undefined,
  end: boolean,
  onReport: ((report: ExtractionReport) => void) | undefined,
): { content: string; reasoning: string; toolCalls: DeltaToolCall[] } {
  const out = { content: "", reasoning: "", toolCalls: [] as DeltaToolCall[] };
  // Content one extractor leaves goes to the next in place, as core's ContentCallReader routes it: calls of several
  // syntaxes come in the order they were written, however the text is split.
  const route = (level: number, events: readonly ExtractionEvent[]): void => {
    const { extractor } = state.streams[level] as ChoiceState["streams"][number];
    for (const event of events) {
      if (event.type === "content") pass(level + 1, event.text);
      else if (event.type === "tool_call") {
        const index = state.nextIndex++;
        onReport?.({
          kind: "tool_call",
          extractor: extractor.name,
          syntax: extractor.syntax,
          index,
          toolCall: event.toolCall,
        });
        state.found++;
        out.toolCalls.push({ index, ...event.toolCall });
      } else if (event.type === "issue")
        onReport?.({ kind: "issue", extractor: extractor.name, issue: event.issue });
      else if (event.type === "reasoning") out.reasoning += event.text;
    }
  };
  const pass = (level: number, piece: string): void => {
    const entry = state.streams[level];
    if (entry === undefined) out.content += piece;
    else route(level, entry.stream.push(piece));
  };
  if (text !== undefined) pass(0, text);
  // Each extractor ends in turn: what the first held goes through the next before the next ends.
  if (end)
    for (let level = 0; level < state.streams.length; level++)
      route(level, (state.streams[level] as ChoiceState["streams"][number]).stream.end());
  return out;
}

/** Reasoning a syntax marked goes where vLLM and SGLang put it: `reasoning_content`, after the server's own. */
function withReasoning(delta: ChunkChoice["delta"], text: string): void {
  const own = (delta as { reasoning_content?: unknown }).reasoning_content;
  (delta as { reasoning_content?: string }).reasoning_content =
    `${typeof own === "string" ? own : ""}${text}`;
}

function hasValue(delta: Record<string, unknown>): boolean {
  for (const key in delta) if (delta[key] !== undefined && delta[key] !== null) return true;
  return false;
}

/**
 * Recovers native tool calls left in streamed content (Chat Completions chunks), one chunk at a time: the step the
 * stream repair runs every chunk through (`createSseRepair`'s `prepare`). Content passes on as soon as each
 * extractor knows it cannot start a call (a few characters at most are held); a recovered call is handed on as one
 * whole tool-call delta, with an index after the server's own; a finish of `"stop"` becomes `"tool_calls"` when
 * calls were found. Chunks without call-like text are passed on as the same objects.
 *
 * @example
 * const step = new ContentCallStream({ extractors: [gemmaContentCalls], context });
 * for (const chunk of chunks) for (const out of step.push(chunk)) send(out);
 * for (const out of step.end()) send(out);
 */
export class ContentCallStream implements ChunkStep {
  readonly #states = new Map<number, ChoiceState>();
  readonly #extractors: readonly ContentCallExtractor[];
  readonly #context: ExtractionContext;
  readonly #onReport: ((report: ExtractionReport) => void) | undefined;
  #template: ChatCompletionChunk | undefined;

  constructor(args: {
    extractors: readonly ContentCallExtractor[];
    context: ExtractionContext;
    onReport?: (report: ExtractionReport) => void;
  }) {
    this.#extractors = args.extractors;
    this.#context = args.context;
    this.#onReport = args.onReport;
  }

  #stateOf(index: number): ChoiceState {
    let state = this.#states.get(index);
    if (state === undefined) {
      state = {
        streams: this.#extractors.map((extractor) => ({
          extractor,
          stream: extractor.createStream(this.#context),
        })),
        nextIndex: 0,
        found: 0,
        finished: false,
      };
      this.#states.set(index, state);
    }
    return state;
  }

  push(chunk: ChatCompletionChunk): ChatCompletionChunk[] {
    this.#template ??= chunk;
    if (!Array.isArray(chunk.choices) || chunk.choices.length === 0) return [chunk];
    let choices: ChunkChoice[] | undefined;
    chunk.choices.forEach((choice, position) => {
      const state = this.#stateOf(choice.index);
      for (const call of choice.delta?.tool_calls ?? [])
        if (typeof call.index === "number") state.nextIndex = Math.max(state.nextIndex, call.index + 1);
      const content = choice.delta?.content;
      const finishing = choice.finish_reason != null;
      if ((typeof content !== "string" || content === "") && !finishing) {
        choices?.push(choice);
        return;
      }
      const text = typeof content === "string" && content !== "" ? content : undefined;
      const out = feed(state, text, finishing, this.#onReport);
      if (finishing) state.finished = true;
      if (out.toolCalls.length === 0 && out.reasoning === "" && out.content === (text ?? "")) {
        // Nothing held, nothing found: the chunk's own object goes on.
        if (finishing && state.found > 0 && choice.finish_reason === "stop") {
          choices ??= chunk.choices.slice(0, position);
          choices.push({ ...choice, finish_reason: "tool_calls" });
        } else choices?.push(choice);
        return;
      }
      choices ??= chunk.choices.slice(0, position);
      const { content: _content, tool_calls: serverCalls, ...rest } = choice.delta ?? {};
      const delta: ChunkChoice["delta"] = { ...rest };
      if (out.content !== "") delta.content = out.content;
      if (out.reasoning !== "") withReasoning(delta, out.reasoning);
      const toolCalls = [...(serverCalls ?? []), ...out.toolCalls];
      if (toolCalls.length > 0) delta.tool_calls = toolCalls;
      const finish =
        finishing && state.found > 0 && choice.finish_reason === "stop" ? "tool_calls" : choice.finish_reason;
      if (!hasValue(delta as Record<string, unknown>) && finish == null && choice.logprobs == null) return;
      choices.push({ ...choice, delta, finish_reason: finish });
    });
    if (choices === undefined) return [chunk];
    return choices.length > 0 || chunk.usage != null ? [{ ...chunk, choices }] : [];
  }

  /** The stream ended without finishing some choices: what the extractors hold is handed on. */
  end(): ChatCompletionChunk[] {
    const out: ChatCompletionChunk[] = [];
    for (const [index, state] of this.#states) {
      if (state.finished) continue;
      state.finished = true;
      const found = feed(state, undefined, true, this.#onReport);
      if (found.content === "" && found.reasoning === "" && found.toolCalls.length === 0) continue;
      const delta: ChunkChoice["delta"] = {};
      if (found.content !== "") delta.content = found.content;
      if (found.reasoning !== "") withReasoning(delta, found.reasoning);
      if (found.toolCalls.length > 0) delta.tool_calls = found.toolCalls;
      out.push({
        ...(this.#template as ChatCompletionChunk),
        choices: [{ index, delta, finish_reason: null, logprobs: null }],
        usage: undefined,
      } as ChatCompletionChunk);
    }
    return out;
  }
}

/**
 * {@link ContentCallStream} over an async iterable of chunks.
 *
 * @example
 * for await (const chunk of extractStreamContentCalls({ source, extractors: [gemmaContentCalls], context })) …
 */
export async function* extractStreamContentCalls(args: {
  source: AsyncIterable<ChatCompletionChunk>;
  extractors: readonly ContentCallExtractor[];
  context: ExtractionContext;
  onReport?: (report: ExtractionReport) => void;
}): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  const step = new ContentCallStream(args);
  for await (const chunk of args.source) yield* step.push(chunk);
  yield* step.end();
}
