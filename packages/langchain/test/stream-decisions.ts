// The conformance suite's `decideStream` through `repairToolCallStream`: each flat delta becomes one
// AIMessageChunk carrying one tool-call fragment, the finish reason a last chunk; what the yielded chunks add up to
// per call (by index, as LangChain's concat merges them) is read back, with the input position after which each
// call's first fragment was yielded, and each call's decision from the last chunk.
import { AIMessageChunk, type BaseMessage, type ToolCallChunk } from "@langchain/core/messages";
import { type RepairToolCallsOptions, repairToolCallStream, TOOLCALL_REPORT_KEY } from "../src/index.js";

export interface FlatDelta {
  index: number;
  id?: string;
  name?: string;
  arguments?: string;
}

export interface ClientCall {
  index: number;
  id?: string;
  name: string;
  text: string;
  usable: boolean;
  status: string;
  opened: number | "finish";
}

/** One chunk per delta, then one with the finish reason (none when absent: a cut stream). */
export function chunksOf(
  deltas: readonly FlatDelta[],
  finishReason: string | null | undefined,
): AIMessageChunk[] {
  const chunks = deltas.map((delta) => {
    const fragment: ToolCallChunk = {
      index: delta.index,
      ...(delta.id === undefined ? {} : { id: delta.id }),
      ...(delta.name === undefined ? {} : { name: delta.name }),
      ...(delta.arguments === undefined ? {} : { args: delta.arguments }),
      type: "tool_call_chunk",
    };
    return new AIMessageChunk({ content: "", tool_call_chunks: [fragment] });
  });
  chunks.push(
    new AIMessageChunk({
      content: "",
      response_metadata: finishReason == null ? {} : { finish_reason: finishReason },
    }),
  );
  return chunks;
}

/** What the client holds once `repairToolCallStream` has yielded everything for these chunks. */
export async function clientCalls(
  chunks: readonly BaseMessage[],
  deltaCount: number,
  options: RepairToolCallsOptions,
): Promise<ClientCall[]> {
  async function* source() {
    yield* chunks;
  }
  const calls = new Map<number, ClientCall>();
  let position = 0;
  let last: AIMessageChunk | undefined;
  for await (const chunk of repairToolCallStream(source(), options)) {
    const at = position < deltaCount ? position : "finish";
    position++;
    last = chunk as AIMessageChunk;
    for (const fragment of last.tool_call_chunks ?? []) {
      const index = fragment.index ?? -1;
      let call = calls.get(index);
      if (call === undefined) {
        call = { index, name: "", text: "", usable: true, status: "object", opened: at };
        calls.set(index, call);
      }
      if (typeof fragment.id === "string") call.id = fragment.id;
      if (typeof fragment.name === "string" && fragment.name !== call.name) call.name += fragment.name;
      call.text += fragment.args ?? "";
    }
  }
  const decisions = ((last?.response_metadata?.[TOOLCALL_REPORT_KEY] as { calls?: unknown[] } | undefined)
    ?.calls ?? []) as Array<{ id?: string; status: string; usable: boolean }>;
  for (const decision of decisions) {
    const call = [...calls.values()].find((entry) => entry.id === decision.id);
    if (call === undefined) continue;
    call.usable = decision.usable;
    call.status = decision.status;
  }
  return [...calls.values()];
}

/** `decideStream` through `repairToolCallStream`. */
export function decideStream(
  input: { deltas: unknown[]; finishReason?: string | null },
  options: RepairToolCallsOptions,
): Promise<ClientCall[]> {
  const deltas = input.deltas as FlatDelta[];
  return clientCalls(chunksOf(deltas, input.finishReason), deltas.length, options);
}
