import type { AIMessageChunk, BaseMessage, ToolCallChunk } from "@langchain/core/messages";
import {
  type AccumulatingToolCall,
  finishReasonAtStreamEnd,
  StreamedArguments,
  ToolCallAccumulator,
} from "@toolcall/core/kit";
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

/** A chunk's text and metadata, with the tool-call fragments that may go on now (none by default). */
function withoutToolCalls(
  message: BaseMessage,
  toolCallChunks: ToolCallChunk[] = [],
): RepairedAIMessageChunk {
  const source = message as AIMessageChunk;
  const { tool_calls: _held, ...additional } = (source.additional_kwargs ?? {}) as Record<string, unknown>;
  return new RepairedAIMessageChunk({
    content: source.content,
    ...(source.id === undefined ? {} : { id: source.id }),
    ...(typeof source.name === "string" ? { name: source.name } : {}),
    additional_kwargs: additional,
    response_metadata: { ...(source.response_metadata ?? {}) },
    ...(source.usage_metadata === undefined ? {} : { usage_metadata: source.usage_metadata }),
    ...(toolCallChunks.length === 0 ? {} : { tool_call_chunks: toolCallChunks }),
  });
}

/** One streamed call: core's gate on its fragments, and how its fragments name it (for the rest sent at the end). */
interface StreamedCall {
  gate: StreamedArguments;
  key: { index?: number; id?: string };
}

/**
 * Which of a chunk's tool-call fragments go on now: each call's fragments pass as they came while core's
 * `StreamedArguments` says they can still begin a JSON object; a call that cannot go on keeps its name and id in a
 * fragment without text, and its text is decided at the end.
 */
function passing(
  fragments: readonly ToolCallChunk[],
  accumulator: ToolCallAccumulator,
  calls: Map<AccumulatingToolCall, StreamedCall>,
  maxDepth: number | undefined,
): ToolCallChunk[] {
  const passed: ToolCallChunk[] = [];
  for (const fragment of fragments) {
    const [call] = accumulator.push({
      index: typeof fragment.index === "number" ? fragment.index : undefined,
      id: typeof fragment.id === "string" ? fragment.id : undefined,
      function: {
        name: typeof fragment.name === "string" ? fragment.name : undefined,
        arguments: typeof fragment.args === "string" ? fragment.args : undefined,
      },
    });
    if (call === undefined) continue;
    let entry = calls.get(call);
    const isNew = entry === undefined;
    if (entry === undefined) {
      const key =
        typeof fragment.index === "number"
          ? { index: fragment.index }
          : typeof fragment.id === "string"
            ? { id: fragment.id }
            : {};
      entry = { gate: new StreamedArguments({ maxDepth }), key };
      calls.set(call, entry);
    }
    // A custom tool's input is free text: it goes on as it came.
    const custom = (fragment as { isCustomTool?: unknown }).isCustomTool === true;
    const args = typeof fragment.args === "string" ? fragment.args : "";
    if (custom || entry.gate.push(args)) passed.push(fragment);
    else if (isNew || typeof fragment.id === "string" || typeof fragment.name === "string")
      passed.push({ ...fragment, args: "" });
  }
  return passed;
}

export interface RepairToolCallStreamOptions extends RepairToolCallsOptions {
  /**
   * Hand each call on whole, in the last chunk, instead of its fragments as they come: for consumers that cannot
   * merge fragments by call (LangChain's content-block event bridge reads a fragment's index as a block's position).
   */
  wholeCalls?: boolean;
}

/**
 * Repairs a stream of LangChain message chunks (`model.stream(…)`), tool calls included. Text and metadata pass
 * through as they arrive; each call's argument fragments pass as they come while they can still begin a JSON object
 * (core's `StreamedArguments`), and a call that cannot go on (a Python dict, a fence, Gemma's markers) is held from
 * there. Fragments are accumulated with core's stream rules (R9) and every call is decided once at the end with the
 * stream's finish reason, exactly as {@link repairToolCalls} decides a whole message; the last chunk carries what
 * each call's fragments still need (nothing for a clean call, the repaired rest for a held one). A
 * stream of chunks that ends without a finish reason (`finishReasonOf`: `response_metadata`, or `additional_kwargs`
 * where a streamed `ChatAnthropic` message carries it) was cut (core's `finishReasonAtStreamEnd`):
 * its broken calls are `truncated`, never repaired; pass `finishReason` for a provider that never reports one.
 * The last chunk also carries the decided calls, the invalid ones, the provider-shaped list and, when anything
 * changed, the decisions; `concat` of everything yielded is the repaired message. `wholeCalls: true` hands each call
 * on whole in the last chunk instead.
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
  options: RepairToolCallStreamOptions = {},
): AsyncGenerator<BaseMessage> {
  let merged: AIMessageChunk | undefined;
  let whole: BaseMessage | undefined;
  const fragments: ToolCallChunk[] = [];
  const accumulator = new ToolCallAccumulator();
  const streamed = new Map<AccumulatingToolCall, StreamedCall>();
  for await (const chunk of chunks) {
    if (isAIChunk(chunk)) {
      merged = merged === undefined ? chunk : merged.concat(chunk);
      const own = chunk.tool_call_chunks ?? [];
      fragments.push(...own);
      yield options.wholeCalls === true
        ? withoutToolCalls(chunk)
        : withoutToolCalls(chunk, passing(own, accumulator, streamed, options.maxDepth));
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
  // The decided calls line up with the streamed ones (both accumulated with core's rules, in the order they began).
  const order = whole === undefined && decided.length === accumulator.calls.length ? accumulator.calls : [];
  const toolCallChunks: ToolCallChunk[] = [];
  const wire: unknown[] = [];
  decided.forEach((entry, index) => {
    const call = entry.wire as Record<string, unknown>;
    wire.push({ ...call, index });
    if (entry.toolCall === undefined && entry.invalidToolCall === undefined) return;
    const fn = (call.function ?? {}) as { arguments?: unknown };
    const text = typeof fn.arguments === "string" ? fn.arguments : "";
    const accumulated = order[index];
    const sent = accumulated === undefined ? undefined : streamed.get(accumulated);
    if (sent !== undefined) {
      // What the fragments that went on still need: nothing for a clean call, the repaired rest for a held one.
      const raw = (accumulated as AccumulatingToolCall).arguments;
      const end = sent.gate.end({ text, usable: entry.toolCall !== undefined, raw });
      if (end.rest !== "") toolCallChunks.push({ ...sent.key, args: end.rest, type: "tool_call_chunk" });
      return;
    }
    if (entry.toolCall === undefined) return;
    // An id names the call; LangChain's event bridge would read an index as a content block's position and merge
    // the first call into the text block, so only a call without an id carries one.
    toolCallChunks.push({
      ...(entry.toolCall.id === undefined ? { index } : { id: entry.toolCall.id }),
      name: entry.toolCall.name,
      args: text,
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
