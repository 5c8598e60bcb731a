import type { AIMessageChunk, BaseMessage, ToolCallChunk } from "@langchain/core/messages";
import { finishReasonAtStreamEnd } from "@toolcall/core";
import { collectToolCalls } from "./collect-tool-calls.js";
import { finishReasonOf } from "./finish-reason.js";
import { isAIChunk, isAIMessageLike } from "./message-type.js";
import {
  DECISIONS_KEY,
  type RepairToolCallsOptions,
  recordOf,
  repairCollected,
} from "./repair-tool-calls.js";
import { RepairedAIMessageChunk } from "./repaired-ai-message-chunk.js";

/** A chunk's text and metadata without its tool-call fragments (those are decided at the end). */
function withoutToolCalls(message: BaseMessage): RepairedAIMessageChunk {
  const source = message as AIMessageChunk;
  const { tool_calls: _held, ...additional } = (source.additional_kwargs ?? {}) as Record<string, unknown>;
  return new RepairedAIMessageChunk({
    content: source.content,
    ...(source.id === undefined ? {} : { id: source.id }),
    ...(typeof source.name === "string" ? { name: source.name } : {}),
    additional_kwargs: additional,
    response_metadata: { ...(source.response_metadata ?? {}) },
    ...(source.usage_metadata === undefined ? {} : { usage_metadata: source.usage_metadata }),
  });
}

/**
 * Repairs a stream of LangChain message chunks (`model.stream(…)`), tool calls included. Text and metadata pass
 * through as they arrive; tool-call fragments are held back, accumulated with core's stream rules (R9) and decided
 * once at the end with the stream's finish reason, exactly as {@link repairToolCalls} decides a whole message. A
 * stream of chunks that ends without a finish reason (`finishReasonOf`: `response_metadata`, or `additional_kwargs`
 * where a streamed `ChatAnthropic` message carries it) was cut (core's `finishReasonAtStreamEnd`):
 * its broken calls are `truncated`, never repaired; pass `finishReason` for a provider that never reports one.
 * The last chunk carries the calls that can run (complete JSON text in `tool_call_chunks`), the invalid ones, the
 * provider-shaped list and, when anything changed, the decisions; `concat` of everything yielded is the repaired
 * message.
 *
 * @example
 * let full;
 * for await (const chunk of repairToolCallStream(await chatOpenAI.stream(messages), { repairs: coreRepairs })) {
 *   full = full === undefined ? chunk : full.concat(chunk);
 * }
 * full.tool_calls; // what can run; full.invalid_tool_calls: what cannot, with an issue code
 */
export async function* repairToolCallStream(
  chunks: AsyncIterable<BaseMessage>,
  options: RepairToolCallsOptions = {},
): AsyncGenerator<BaseMessage> {
  let merged: AIMessageChunk | undefined;
  let whole: BaseMessage | undefined;
  const fragments: ToolCallChunk[] = [];
  for await (const chunk of chunks) {
    if (isAIChunk(chunk)) {
      merged = merged === undefined ? chunk : merged.concat(chunk);
      fragments.push(...(chunk.tool_call_chunks ?? []));
      yield withoutToolCalls(chunk);
    } else if (isAIMessageLike(chunk)) {
      // A model that does not stream yields one whole message.
      whole = chunk;
      yield withoutToolCalls(chunk);
    } else {
      yield chunk;
    }
  }
  const source = whole ?? merged;
  if (source === undefined) return;
  const collected =
    whole === undefined ? collectToolCalls(source, { toolCallChunks: fragments }) : collectToolCalls(source);
  if (collected === undefined || collected.length === 0) return;
  // Chunks that end without a finish reason are a cut stream; a whole message is read as it says.
  const decideWith =
    whole === undefined && options.finishReason === undefined
      ? { ...options, finishReason: finishReasonAtStreamEnd(finishReasonOf(source)) }
      : options;
  const { decided, changed } = repairCollected(source, collected, decideWith);
  const toolCallChunks: ToolCallChunk[] = [];
  const wire: unknown[] = [];
  decided.forEach((entry, index) => {
    const call = entry.wire as Record<string, unknown>;
    wire.push({ ...call, index });
    if (entry.toolCall === undefined) return;
    const fn = call.function as { arguments: string };
    // An id names the call; LangChain's event bridge would read an index as a content block's position and merge
    // the first call into the text block, so only a call without an id carries one.
    toolCallChunks.push({
      ...(entry.toolCall.id === undefined ? { index } : { id: entry.toolCall.id }),
      name: entry.toolCall.name,
      args: fn.arguments,
      type: "tool_call_chunk",
    });
  });
  const decisions = decided.flatMap((entry) =>
    entry.decision === undefined ? [] : [recordOf(entry.decision)],
  );
  yield new RepairedAIMessageChunk(
    {
      content: "",
      ...(source.id === undefined ? {} : { id: source.id }),
      tool_call_chunks: toolCallChunks,
      additional_kwargs: { tool_calls: wire as never },
      response_metadata: changed && decisions.length > 0 ? { [DECISIONS_KEY]: decisions } : {},
    },
    {
      toolCalls: decided.flatMap((entry) => (entry.toolCall === undefined ? [] : [entry.toolCall])),
      invalidToolCalls: decided.flatMap((entry) =>
        entry.invalidToolCall === undefined ? [] : [entry.invalidToolCall],
      ),
    },
  );
}
