import {
  type AccumulatingToolCall,
  type FinishReason,
  finishReasonAtStreamEnd,
  ToolCallAccumulator,
} from "@toolcall/core";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ArgumentsReport, OpenAIRepairOptions } from "./options.js";
import { repairArguments } from "./repair-arguments.js";

type ChunkChoice = ChatCompletionChunk.Choice;
type ChunkToolCall = ChatCompletionChunk.Choice.Delta.ToolCall;

function isEmptyDelta(delta: ChatCompletionChunk.Choice.Delta): boolean {
  for (const key in delta) {
    const value = (delta as Record<string, unknown>)[key];
    if (value !== undefined && value !== null && key !== "tool_calls") return false;
  }
  return true;
}

/**
 * Repairs the tool calls of a Chat Completions stream (R9): content, refusals and every other field pass through
 * at once; argument deltas are accumulated per call and held back; each call is handed on, whole and decoded once
 * by core, in one chunk as soon as it completes: when the next call begins and its text is already whole JSON (calls
 * sent one after another, as OpenAI sends them), or when the choice finishes (calls interleaved, or still broken). A stream that ends
 * with `finish_reason: "length"` marks broken calls truncated and never repairs them; a final frame repeating the
 * complete arguments is not appended twice.
 *
 * @example
 * const stream = await client.chat.completions.create({ model, messages, tools, stream: true });
 * for await (const chunk of repairChatCompletionStream(stream, { repairs: coreRepairs })) {
 *   // chunk.choices[0].delta.tool_calls holds whole, repaired calls
 * }
 */
export function repairChatCompletionStream(
  source: AsyncIterable<ChatCompletionChunk>,
  options: OpenAIRepairOptions & { reports?: ArgumentsReport[] } = {},
): AsyncIterableIterator<ChatCompletionChunk> {
  const states = new Map<number, ToolCallAccumulator>();
  let template: ChatCompletionChunk | undefined;
  let upstream: AsyncIterator<ChatCompletionChunk> | undefined;
  let ended = false;
  const queue: ChatCompletionChunk[] = [];

  const complete = (
    choiceIndex: number,
    calls: AccumulatingToolCall[],
    finishReason: FinishReason | null,
  ): ChatCompletionChunk => {
    const toolCalls: ChunkToolCall[] = calls.map((call) => {
      const { text, report } = repairArguments({
        api: "chat.completions",
        source: "stream",
        index: choiceIndex,
        id: call.id,
        name: call.name,
        arguments: call.arguments === "" ? undefined : call.arguments,
        finishReason,
        options,
      });
      if (report) options.reports?.push(report);
      return {
        index: call.index,
        ...(call.id === undefined ? {} : { id: call.id }),
        type: "function",
        function: { name: call.name, arguments: text as string },
      };
    });
    const base = template as ChatCompletionChunk;
    return {
      ...base,
      choices: [
        { index: choiceIndex, delta: { tool_calls: toolCalls }, finish_reason: null, logprobs: null },
      ],
      usage: undefined,
    } as ChatCompletionChunk;
  };

  /** Queues what one chunk gives: completed calls first, then the chunk without its argument deltas. */
  const take = (chunk: ChatCompletionChunk): void => {
    template ??= chunk;
    const choices = chunk.choices;
    if (!Array.isArray(choices)) {
      // Not a chunk (an error object a server put in the stream): handed on as it came.
      queue.push(chunk);
      return;
    }
    let forwarded: ChunkChoice[] | undefined;
    for (let position = 0; position < choices.length; position++) {
      const choice = choices[position] as ChunkChoice;
      const toolCalls = choice.delta?.tool_calls;
      if (toolCalls === undefined || toolCalls === null) {
        // The common case, content: nothing to hold back unless this choice finishes with calls open.
        if (choice.finish_reason != null) {
          const rest = states.get(choice.index)?.takeRest() ?? [];
          if (rest.length > 0) queue.push(complete(choice.index, rest, choice.finish_reason));
        }
        forwarded?.push(choice);
        continue;
      }
      let accumulator = states.get(choice.index);
      if (accumulator === undefined) {
        accumulator = new ToolCallAccumulator();
        states.set(choice.index, accumulator);
      }
      accumulator.push(toolCalls);
      // Core decides when a call is complete before the finish (R9): here it is only handed on.
      const completed = accumulator.takeCompleted();
      if (completed.length > 0) queue.push(complete(choice.index, completed, null));
      if (choice.finish_reason != null) {
        const rest = accumulator.takeRest();
        if (rest.length > 0) queue.push(complete(choice.index, rest, choice.finish_reason));
      }
      forwarded ??= choices.slice(0, position);
      const { tool_calls: _held, ...delta } = choice.delta;
      if (!isEmptyDelta(delta) || choice.finish_reason != null || choice.logprobs != null)
        forwarded.push({ ...choice, delta });
    }
    if (forwarded === undefined) queue.push(chunk);
    else if (forwarded.length > 0 || chunk.usage != null) queue.push({ ...chunk, choices: forwarded });
  };

  /**
   * The stream ended without a finish reason (a cut connection): what is open is handed on as a length stop would
   * leave it, so text that was cut off is truncated and never repaired into a call that looks whole.
   */
  const flush = (): void => {
    for (const [choiceIndex, accumulator] of states) {
      const rest = accumulator.takeRest();
      if (rest.length > 0) queue.push(complete(choiceIndex, rest, finishReasonAtStreamEnd(null)));
    }
  };

  // A hand-written iterator rather than an async generator: one promise per chunk instead of two.
  const iterator: AsyncIterableIterator<ChatCompletionChunk> = {
    async next(): Promise<IteratorResult<ChatCompletionChunk>> {
      while (queue.length === 0 && !ended) {
        upstream ??= source[Symbol.asyncIterator]();
        const result = await upstream.next();
        if (result.done) {
          ended = true;
          flush();
        } else take(result.value);
      }
      const value = queue.shift();
      return value === undefined ? { done: true, value: undefined } : { done: false, value };
    },
    async return(): Promise<IteratorResult<ChatCompletionChunk>> {
      // The consumer stopped early: stop the source too (it closes the HTTP response).
      ended = true;
      queue.length = 0;
      await upstream?.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
