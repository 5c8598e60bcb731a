import {
  AIMessageChunk,
  type InvalidToolCall,
  type ToolCall as LangChainToolCall,
} from "@langchain/core/messages";

type ChunkFields = ConstructorParameters<typeof AIMessageChunk>[0];

/** The calls core decided for a repaired stream. */
export interface DecidedLists {
  toolCalls: LangChainToolCall[];
  invalidToolCalls: InvalidToolCall[];
}

const decidedLists = new WeakMap<object, DecidedLists>();

function apply(chunk: AIMessageChunk, lists: DecidedLists): void {
  const kwargs = chunk.lc_kwargs as Record<string, unknown>;
  chunk.tool_calls = lists.toolCalls;
  chunk.invalid_tool_calls = lists.invalidToolCalls;
  kwargs.tool_calls = lists.toolCalls;
  kwargs.invalid_tool_calls = lists.invalidToolCalls;
}

function unique<T>(calls: readonly T[]): T[] {
  const seen = new Set<string>();
  return calls.filter((call) => {
    const record = call as { id?: unknown; name?: unknown; args?: unknown };
    const key = JSON.stringify([record.id ?? null, record.name ?? null, record.args ?? null]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The chunks a repaired stream yields. LangChain re-derives a chunk's `tool_calls` and `invalid_tool_calls` from
 * its `tool_call_chunks` on every `concat` (completing cut-off JSON as it goes, and dropping invalid calls given
 * explicitly); this class keeps the lists core decided through any number of `concat`s, so the merged stream
 * carries the same calls as the repaired whole message. It serializes as a plain `AIMessageChunk`.
 *
 * @example
 * const last = new RepairedAIMessageChunk({ content: "" }, { toolCalls: [], invalidToolCalls: [cutOff] });
 * new RepairedAIMessageChunk({ content: "Hi" }).concat(last).invalid_tool_calls; // [cutOff]
 */
export class RepairedAIMessageChunk extends AIMessageChunk {
  // Serialized and restored, it is a plain AIMessageChunk.
  override get lc_id(): string[] {
    return [...this.lc_namespace, "AIMessageChunk"];
  }

  constructor(fields: ChunkFields, decided?: DecidedLists) {
    super(fields);
    if (decided !== undefined) {
      decidedLists.set(this, decided);
      apply(this, decided);
    }
  }

  override concat(chunk: AIMessageChunk): this {
    const merged = super.concat(chunk);
    const left = decidedLists.get(this);
    const right = decidedLists.get(chunk);
    if (left === undefined && right === undefined) return merged as this;
    const lists = {
      toolCalls: unique([...(left?.toolCalls ?? []), ...(right?.toolCalls ?? [])]),
      invalidToolCalls: unique([...(left?.invalidToolCalls ?? []), ...(right?.invalidToolCalls ?? [])]),
    };
    decidedLists.set(merged, lists);
    apply(merged, lists);
    return merged as this;
  }
}
