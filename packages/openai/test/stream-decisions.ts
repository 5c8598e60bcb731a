// The conformance suite's `decideStream` through this package's Chat Completions stream repair: each flat delta
// becomes one chunk, the finish reason a last one; what a client merging the chunks by call index holds is read
// back, with the input position after which each call's header first reached it.
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { type ArgumentsReport, ChatChunkRepair, type OpenAIRepairOptions } from "../src/index.js";

export interface FlatDelta {
  index: number;
  id?: string;
  name?: string;
  arguments?: string;
}

const base = { id: "chatcmpl-stream", object: "chat.completion.chunk" as const, created: 0, model: "m" };

/** One chunk per delta, then the finish (none when `finishReason` is absent: a cut stream). */
export function chunksOf(
  deltas: readonly FlatDelta[],
  finishReason: string | null | undefined,
): ChatCompletionChunk[] {
  const chunks: ChatCompletionChunk[] = deltas.map((delta) => ({
    ...base,
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [
            {
              index: delta.index,
              ...(delta.id === undefined ? {} : { id: delta.id, type: "function" as const }),
              function: {
                ...(delta.name === undefined ? {} : { name: delta.name }),
                ...(delta.arguments === undefined ? {} : { arguments: delta.arguments }),
              },
            },
          ],
        },
        finish_reason: null,
      },
    ],
  }));
  if (finishReason != null)
    chunks.push({
      ...base,
      choices: [
        { index: 0, delta: {}, finish_reason: finishReason as ChatCompletionChunk.Choice["finish_reason"] },
      ],
    });
  return chunks;
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

/** What a client holds after a stream of chunks, each tagged with the input position it came after. */
export function clientCalls(
  out: ReadonlyArray<{ at: number | "finish"; chunk: ChatCompletionChunk }>,
  reports: readonly ArgumentsReport[],
): ClientCall[] {
  const calls = new Map<number, ClientCall>();
  for (const { at, chunk } of out)
    for (const toolCall of chunk.choices[0]?.delta.tool_calls ?? []) {
      let call = calls.get(toolCall.index);
      if (call === undefined) {
        call = { index: toolCall.index, name: "", text: "", usable: true, status: "object", opened: at };
        calls.set(toolCall.index, call);
      }
      if (toolCall.id) call.id = toolCall.id;
      call.name += toolCall.function?.name ?? "";
      call.text += toolCall.function?.arguments ?? "";
    }
  for (const report of reports) {
    const call = [...calls.values()].find((entry) => entry.id === report.toolCallId);
    if (call === undefined) continue;
    call.usable = report.usable;
    call.status = report.status;
  }
  return [...calls.values()];
}

/** `decideStream` through `ChatChunkRepair`. */
export function decideStream(
  input: { deltas: unknown[]; finishReason?: string | null },
  options: OpenAIRepairOptions,
): ClientCall[] {
  const repair = new ChatChunkRepair(options);
  const deltas = input.deltas as FlatDelta[];
  const out: Array<{ at: number | "finish"; chunk: ChatCompletionChunk }> = [];
  chunksOf(deltas, input.finishReason).forEach((chunk, position) => {
    const at = position < deltas.length ? position : "finish";
    for (const event of repair.push(chunk)) out.push({ at, chunk: event.value });
  });
  for (const event of repair.end()) out.push({ at: "finish", chunk: event.value });
  return clientCalls(out, repair.reports);
}
