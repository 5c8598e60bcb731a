import type { AIMessageChunk, BaseMessage, ToolCallChunk } from "@langchain/core/messages";
import type { NormalizedAnswerArguments } from "@toolcall/core";
import {
  finishReasonAtStreamEnd,
  type StreamCall,
  StreamDecider,
  type StreamEvent,
  TOOLCALL_REPORT_KEY,
} from "@toolcall/core/kit";
import { collectToolCalls } from "./collect-tool-calls.js";
import { ContentCallChunks } from "./content-call-messages.js";
import { finishReasonOf } from "./finish-reason.js";
import { isAIChunk, isAIMessageLike } from "./message-type.js";
import { type RepairToolCallsOptions, repairCollected } from "./repair-tool-calls.js";
import { RepairedAIMessageChunk } from "./repaired-ai-message-chunk.js";

/** A chunk's text and metadata, with the tool-call fragments that may go on now (none by default). */
function withoutToolCalls(
  message: BaseMessage,
  toolCallChunks: ToolCallChunk[] = [],
  text?: { content: string; reasoning: string },
): RepairedAIMessageChunk {
  const source = message as AIMessageChunk;
  const { tool_calls: _held, ...additional } = (source.additional_kwargs ?? {}) as Record<string, unknown>;
  if (text !== undefined && text.reasoning !== "")
    additional.reasoning_content = `${typeof additional.reasoning_content === "string" ? additional.reasoning_content : ""}${text.reasoning}`;
  return new RepairedAIMessageChunk({
    content: text === undefined ? source.content : text.content,
    ...(source.id === undefined ? {} : { id: source.id }),
    ...(typeof source.name === "string" ? { name: source.name } : {}),
    additional_kwargs: additional,
    response_metadata: { ...(source.response_metadata ?? {}) },
    ...(source.usage_metadata === undefined ? {} : { usage_metadata: source.usage_metadata }),
    ...(toolCallChunks.length === 0 ? {} : { tool_call_chunks: toolCallChunks }),
  });
}

/**
 * LangChain's tool-call fragments mapped onto core's `StreamDecider`: each fragment is a piece of a call; what the
 * decider lets through becomes fragments again (the fragment itself when it passes as it came), keyed as the call's
 * first fragment was (its index, else its id), so LangChain's `concat` merges them into the same call. Nothing is
 * decided here.
 */
class FragmentDecider {
  readonly decider: StreamDecider;
  /** How each call's fragments name it, by the decider's position. */
  readonly #keys: Array<{ index?: number; id?: string }> = [];
  /** Indexes for fragments that carry none: one per id, after the largest index seen. */
  readonly #idIndexes = new Map<string, number>();
  #nextIndex = 0;

  constructor(options: RepairToolCallsOptions) {
    this.decider = new StreamDecider({
      repairs: options.repairs ?? [],
      maxDepth: options.maxDepth,
      ...(options.tools === undefined ? {} : { tools: options.tools }),
      splitMergedCalls: options.splitMergedCalls === true,
    });
  }

  /** The first index no call of the stream used yet. */
  get nextIndex(): number {
    return this.#nextIndex;
  }

  /** Notes a fragment's index before it is pushed, so calls read from text take indexes after it. */
  see(fragment: ToolCallChunk): void {
    if (typeof fragment.index === "number" && fragment.index >= this.#nextIndex)
      this.#nextIndex = fragment.index + 1;
  }

  push(fragments: readonly ToolCallChunk[]): ToolCallChunk[] {
    const out: ToolCallChunk[] = [];
    for (const fragment of fragments) {
      // A custom tool's input is free text: it goes on as it came.
      if ((fragment as { isCustomTool?: unknown }).isCustomTool === true) {
        out.push(fragment);
        continue;
      }
      const id = typeof fragment.id === "string" && fragment.id !== "" ? fragment.id : undefined;
      const index = typeof fragment.index === "number" ? fragment.index : this.#indexOf(id);
      if (typeof fragment.index === "number" && fragment.index >= this.#nextIndex)
        this.#nextIndex = fragment.index + 1;
      const known = this.decider.calls.length;
      const events = this.decider.push({
        index,
        id,
        name: typeof fragment.name === "string" ? fragment.name : undefined,
        arguments: typeof fragment.args === "string" ? fragment.args : undefined,
      });
      if (this.decider.calls.length > known)
        this.#keys.push(
          typeof fragment.index === "number" ? { index: fragment.index } : id === undefined ? {} : { id },
        );
      this.events(events, fragment, out);
    }
    return out;
  }

  #indexOf(id: string | undefined): number | undefined {
    if (id === undefined) return undefined;
    let index = this.#idIndexes.get(id);
    if (index === undefined) {
      index = this.#nextIndex++;
      this.#idIndexes.set(id, index);
    }
    return index;
  }

  events(events: readonly StreamEvent[], fragment: ToolCallChunk | undefined, out: ToolCallChunk[]): void {
    for (const event of events) {
      const key = this.#keys[event.call.position] ?? {};
      if (event.type === "open") {
        const args = event.text;
        if (event.own && fragment !== undefined)
          out.push(args === (fragment.args ?? "") ? fragment : { ...fragment, args });
        else out.push(header(event.call, key, args));
      } else if (event.type === "text") {
        if (!event.held) out.push(fragment as ToolCallChunk);
        else if (typeof fragment?.id === "string" || typeof fragment?.name === "string")
          out.push({ ...(fragment as ToolCallChunk), args: "" });
      } else {
        if (event.decision.rest !== "")
          out.push({ ...key, args: event.decision.rest, type: "tool_call_chunk" });
        // Calls merged into this one: each further call comes whole, at the index the decider gave it.
        for (const part of event.decision.split?.slice(1) ?? []) {
          if (part.index >= this.#nextIndex) this.#nextIndex = part.index + 1;
          out.push({
            index: part.index,
            id: part.id,
            name: event.call.call.name,
            args: part.arguments,
            type: "tool_call_chunk",
          });
        }
      }
    }
  }
}

function header(call: StreamCall, key: { index?: number; id?: string }, args: string): ToolCallChunk {
  return {
    ...key,
    ...(call.call.id === undefined ? {} : { id: call.call.id }),
    name: call.call.name,
    args,
    type: "tool_call_chunk",
  };
}

/** What `repairToolCallStream` takes: everything `repairToolCalls` does, and whether calls go on whole in the last chunk. */
export interface RepairToolCallStreamOptions extends RepairToolCallsOptions {
  /**
   * Hand each call on whole, in the last chunk, instead of its fragments as they come: for consumers that cannot
   * merge fragments by call (LangChain's content-block event bridge reads a fragment's index as a block's position).
   */
  wholeCalls?: boolean;
}

/**
 * Repairs a stream of LangChain message chunks (`model.stream(…)`), tool calls included. Text and metadata pass
 * through as they arrive; the tool-call fragments go through core's `StreamDecider`: each call's fragments pass as
 * they come while they can still begin a JSON object; a call that cannot go on (a Python dict, a fence, Gemma's
 * markers) is held from there, and the calls after it wait behind it. A call is decided once: when it is complete
 * and whole JSON (then the rest it needs, if any, comes in the next chunk), otherwise at the end with the stream's
 * finish reason, exactly as {@link repairToolCalls} decides a whole message. A stream of chunks that ends without
 * a finish reason (`finishReasonOf`: `response_metadata`, or `additional_kwargs` where a streamed `ChatAnthropic`
 * message carries it) was cut (core's `finishReasonAtStreamEnd`): its broken calls are `truncated`, never
 * repaired; pass `finishReason` for a provider that never reports one. The last chunk carries what the calls
 * decided there still need, the decided calls, the invalid ones, the provider-shaped list and, when anything
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
  const stream = new FragmentDecider(options);
  const text = new ContentCallChunks({
    context: {
      syntaxes: options.contentCalls ?? [],
      ...(options.tools === undefined ? {} : { tools: options.tools }),
    },
  });
  for await (const chunk of chunks) {
    if (isAIChunk(chunk)) {
      merged = merged === undefined ? chunk : merged.concat(chunk);
      const own = [...(chunk.tool_call_chunks ?? [])];
      for (const fragment of own) stream.see(fragment);
      // Calls a server left in the text join the call fragments, whole, after every index the stream used.
      const read =
        text.active && typeof chunk.content === "string"
          ? text.push({ text: chunk.content, nextIndex: stream.nextIndex })
          : undefined;
      if (read !== undefined) own.push(...read.fragments);
      for (const fragment of own) fragments.push(fragment);
      const passed = stream.push(own);
      yield withoutToolCalls(chunk, options.wholeCalls === true ? [] : passed, read);
    } else if (isAIMessageLike(chunk)) {
      // A model that does not stream yields one whole message.
      whole = chunk;
      yield withoutToolCalls(chunk);
    } else {
      yield chunk;
    }
  }
  if (text.active && whole === undefined) {
    // What the syntaxes still held: its text and calls go in one more chunk.
    const rest = text.push({ text: undefined, nextIndex: stream.nextIndex });
    for (const fragment of rest.fragments) fragments.push(fragment);
    const passed = stream.push(rest.fragments);
    if (rest.content !== "" || rest.reasoning !== "" || passed.length > 0)
      yield new RepairedAIMessageChunk({
        content: rest.content,
        additional_kwargs: rest.reasoning === "" ? {} : { reasoning_content: rest.reasoning },
        ...(options.wholeCalls === true || passed.length === 0 ? {} : { tool_call_chunks: passed }),
      });
  }
  const source = whole ?? merged;
  if (source === undefined) return;
  const collected =
    whole === undefined ? collectToolCalls(source, { toolCallChunks: fragments }) : collectToolCalls(source);
  if (collected === undefined || collected.length === 0) return;
  // Chunks that end without a finish reason are a cut stream; a whole message is read as it says.
  const finishReason =
    options.finishReason !== undefined
      ? options.finishReason
      : finishReasonAtStreamEnd(finishReasonOf(source));
  const toolCallChunks: ToolCallChunk[] = [];
  let answers: Array<NormalizedAnswerArguments | undefined> = [];
  if (whole === undefined) {
    stream.events(stream.decider.finish(finishReason), undefined, toolCallChunks);
    // The decided calls line up with the streamed function calls (both accumulated with core's rules, in the order
    // they began); a custom tool's call, free text, is not the decider's.
    const calls = stream.decider.calls;
    let next = 0;
    const aligned = collected.map((entry) =>
      (entry.call as { type?: unknown }).type === "custom" ? undefined : calls[next++]?.decision?.answer,
    );
    if (next === calls.length) answers = aligned;
  }
  const decideWith = {
    ...options,
    ...(whole === undefined ? { finishReason } : {}),
    ...(text.recovered.size === 0 ? {} : { recovered: text.recovered }),
  };
  const { decided, message } = repairCollected(source, collected, decideWith, answers);
  const report = (message.response_metadata as Record<string, unknown> | undefined)?.[TOOLCALL_REPORT_KEY];
  const streamed = whole === undefined && options.wholeCalls !== true && answers.length > 0;
  if (!streamed) toolCallChunks.length = 0;
  const wire: unknown[] = [];
  decided.forEach((entry, index) => {
    const call = entry.wire as Record<string, unknown>;
    wire.push({ ...call, index });
    if (streamed || entry.toolCall === undefined) return;
    const fn = (call.function ?? {}) as { arguments?: unknown };
    // An id names the call; LangChain's event bridge would read an index as a content block's position and merge
    // the first call into the text block, so only a call without an id carries one.
    toolCallChunks.push({
      ...(entry.toolCall.id === undefined ? { index } : { id: entry.toolCall.id }),
      name: entry.toolCall.name,
      args: typeof fn.arguments === "string" ? fn.arguments : "",
      type: "tool_call_chunk",
    });
  });
  yield new RepairedAIMessageChunk(
    {
      content: "",
      ...(source.id === undefined ? {} : { id: source.id }),
      tool_call_chunks: toolCallChunks,
      additional_kwargs: { tool_calls: wire as never },
      response_metadata: report === undefined ? {} : { [TOOLCALL_REPORT_KEY]: report },
    },
    {
      toolCalls: decided.flatMap((entry) => (entry.toolCall === undefined ? [] : [entry.toolCall])),
      invalidToolCalls: decided.flatMap((entry) =>
        entry.invalidToolCall === undefined ? [] : [entry.invalidToolCall],
      ),
    },
  );
}
