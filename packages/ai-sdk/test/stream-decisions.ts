// The conformance suite's `decideStream` through this package's stream: the flat deltas become a Chat Completions
// SSE body, read by the real @ai-sdk/openai-compatible model into AI SDK stream parts; those parts go through the
// middleware's part decider (`StreamPartDecider`, what `repairToolCallStream` runs) one at a time, so each part the
// client gets is tagged with the input delta it came after. What the client holds per call is read back: its
// deltas joined, its tool-call part's report.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { StreamPart } from "../src/ai-sdk-types.js";
import { coreFinishReason } from "../src/finish-reason.js";
import type { DecideOptions } from "../src/index.js";
import { StreamPartDecider } from "../src/stream-part-decider.js";

export interface FlatDelta {
  index: number;
  id?: string;
  name?: string;
  arguments?: string;
}

export interface ClientCall {
  id?: string;
  name: string;
  text: string;
  usable: boolean;
  status: string;
  opened: number | "finish";
}

/** A Chat Completions SSE body: one chunk per delta, then the finish (none when absent: a cut stream). */
export function sseOf(deltas: readonly FlatDelta[], finishReason: string | null | undefined): string {
  const base = { id: "chatcmpl-stream", object: "chat.completion.chunk", created: 0, model: "m" };
  const frames = [
    { ...base, choices: [{ index: 0, delta: { role: "assistant", content: null }, finish_reason: null }] },
    ...deltas.map((delta) => ({
      ...base,
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              {
                index: delta.index,
                ...(delta.id === undefined ? {} : { id: delta.id, type: "function" }),
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
    })),
    ...(finishReason == null
      ? []
      : [{ ...base, choices: [{ index: 0, delta: {}, finish_reason: finishReason }] }]),
  ];
  return `${frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join("")}${finishReason == null ? "" : "data: [DONE]\n\n"}`;
}

/** The parts the real provider makes of an SSE body. */
export async function providerParts(body: string): Promise<StreamPart[]> {
  const provider = createOpenAICompatible({
    name: "stream",
    baseURL: "http://127.0.0.1:9/v1",
    fetch: async () => new Response(body, { headers: { "content-type": "text/event-stream" } }),
  });
  const { stream } = await provider.chatModel("m").doStream({
    prompt: [{ role: "user", content: [{ type: "text", text: "call" }] }],
  });
  const parts: StreamPart[] = [];
  for await (const part of stream) parts.push(part as StreamPart);
  return parts;
}

/**
 * The input delta each provider part came from: a call's first delta gives `tool-input-start` (and a
 * `tool-input-delta` when it has text), any other delta with text one `tool-input-delta`; a delta with no text
 * gives none. `tool-input-end` and `tool-call` go with the delta before them; `finish` is `"finish"`.
 */
function positions(parts: readonly StreamPart[], deltas: readonly FlatDelta[]): Array<number | "finish"> {
  const begins = new Set<number>();
  const seen = new Set<number>();
  deltas.forEach((delta, position) => {
    if (!seen.has(delta.index)) begins.add(position);
    seen.add(delta.index);
  });
  const gives = (position: number) =>
    (begins.has(position) ? 1 : 0) + ((deltas[position]?.arguments ?? "") === "" ? 0 : 1);
  let position = 0;
  let used = 0;
  let last: number | "finish" = 0;
  return parts.map((part) => {
    if (part.type === "finish") return "finish";
    if (part.type !== "tool-input-start" && part.type !== "tool-input-delta") return last;
    while (position < deltas.length && gives(position) === 0) position++;
    last = position;
    if (++used === gives(position)) {
      position++;
      used = 0;
    }
    return last;
  });
}

/** `decideStream` through the real provider's parts and the middleware's part decider. */
export async function decideStream(
  input: { deltas: unknown[]; finishReason?: string | null },
  options: DecideOptions,
): Promise<ClientCall[]> {
  const deltas = input.deltas as FlatDelta[];
  const parts = await providerParts(sseOf(deltas, input.finishReason));
  const at = positions(parts, deltas);
  const decider = new StreamPartDecider(options);
  const calls = new Map<string, ClientCall>();
  const take = (out: readonly StreamPart[], position: number | "finish") => {
    for (const part of out) {
      if (part.type === "tool-input-start")
        calls.set(part.id, {
          id: part.id,
          name: part.toolName,
          text: "",
          usable: true,
          status: "object",
          opened: position,
        });
      else if (part.type === "tool-input-delta") {
        const call = calls.get(part.id);
        if (call !== undefined) call.text += part.delta;
      } else if (part.type === "tool-call") {
        const call = calls.get(part.toolCallId);
        const report = (part.providerMetadata?.toolcall ?? undefined) as
          | { usable?: boolean; status?: string }
          | undefined;
        if (call !== undefined && report !== undefined) {
          call.usable = report.usable ?? true;
          call.status = report.status ?? "object";
        }
      }
    }
  };
  parts.forEach((part, index) => {
    const position = at[index] as number | "finish";
    if (part.type === "finish") {
      take(decider.finish(coreFinishReason(part.finishReason) ?? null), "finish");
    } else take(decider.push(part), position);
  });
  if (!parts.some((part) => part.type === "finish")) take(decider.finish(null), "finish");
  return [...calls.values()];
}
