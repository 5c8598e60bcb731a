import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ArgumentsReport, OpenAIRepairOptions } from "../options.js";
import { ChatChunkRepair } from "./chat-chunk-repair.js";

/**
 * Repairs the tool calls of a Chat Completions stream (R9) as it is read: content, refusals and every other field pass
 * at once; argument fragments go on as they come while they can still begin a JSON object (a clean call streams
 * exactly as the server sent it); a call that cannot go on (a Python dict, a fence, Gemma's markers) is held to its
 * end and then completed with core's repair, later calls of its choice waiting behind it. A call no tool can run on
 * (cut by `finish_reason: "length"`, not JSON, not an object) keeps the model's own text: a fresh answer never turns
 * it into text that parses. A final frame repeating the complete arguments is not appended twice.
 *
 * @example
 * const stream = await client.chat.completions.create({ model, messages, tools, stream: true });
 * for await (const chunk of repairChatCompletionStream(stream, { repairs: coreRepairs })) {
 *   // chunk.choices[0].delta.tool_calls: fragments that add up to repaired arguments
 * }
 */
export function repairChatCompletionStream(
  source: AsyncIterable<ChatCompletionChunk>,
  options: OpenAIRepairOptions & { reports?: ArgumentsReport[] } = {},
): AsyncIterableIterator<ChatCompletionChunk> {
  const repair = new ChatChunkRepair(options);
  let upstream: AsyncIterator<ChatCompletionChunk> | undefined;
  let ended = false;
  let reported = 0;
  let queue: ChatCompletionChunk[] = [];
  let head = 0;

  const take = (outs: ReturnType<ChatChunkRepair["push"]>): void => {
    for (const out of outs) queue.push(out.value);
    if (options.reports !== undefined)
      while (reported < repair.reports.length)
        options.reports.push(repair.reports[reported++] as ArgumentsReport);
  };

  // A hand-written iterator rather than an async generator: one promise per chunk instead of two.
  const iterator: AsyncIterableIterator<ChatCompletionChunk> = {
    async next(): Promise<IteratorResult<ChatCompletionChunk>> {
      while (head === queue.length && !ended) {
        queue = [];
        head = 0;
        upstream ??= source[Symbol.asyncIterator]();
        const result = await upstream.next();
        if (result.done) {
          ended = true;
          take(repair.end());
        } else take(repair.push(result.value));
      }
      if (head === queue.length) return { done: true, value: undefined };
      return { done: false, value: queue[head++] as ChatCompletionChunk };
    },
    async return(): Promise<IteratorResult<ChatCompletionChunk>> {
      // The consumer stopped early: stop the source too (it closes the HTTP response).
      ended = true;
      queue = [];
      head = 0;
      await upstream?.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
