// The conformance suite's `decideStream` through `MessagesStreamRepair`: the flat deltas become the events of a
// streamed Messages API answer (a call's first delta a tool_use `content_block_start`, its text `input_json_delta`
// pieces; a block stops when the next begins, the last one before `message_delta`), each tagged with the input
// position it came from; what the client's events add up to per block is read back.
import { type MessagesRepairOptions, MessagesStreamRepair, type SseEvent, SseEvents } from "../src/index.js";

interface FlatDelta {
  index: number;
  id?: string;
  name?: string;
  arguments?: string;
}

const STOP_REASONS: Record<string, string> = {
  length: "max_tokens",
  tool_calls: "tool_use",
  stop: "end_turn",
};

function eventOf(type: string, data: Record<string, unknown>): SseEvent {
  const events = new SseEvents();
  return events.push(
    new TextEncoder().encode(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`),
  )[0] as SseEvent;
}

export function decideStream(
  input: { deltas: unknown[]; finishReason?: string | null },
  options: MessagesRepairOptions,
) {
  const deltas = input.deltas as FlatDelta[];
  const repair = new MessagesStreamRepair(options);
  const calls = new Map<number, { id?: string; name: string; text: string; opened: number | "finish" }>();
  const read = (texts: readonly string[], at: number | "finish") => {
    const events = new SseEvents();
    for (const event of events.push(new TextEncoder().encode(texts.join("")))) {
      const value = JSON.parse(event.data ?? "{}") as {
        type: string;
        index: number;
        content_block: { id?: string; name: string };
        delta: { partial_json: string };
      };
      if (value.type === "content_block_start")
        calls.set(value.index, {
          id: value.content_block.id,
          name: value.content_block.name,
          text: "",
          opened: at,
        });
      if (value.type === "content_block_delta") {
        const call = calls.get(value.index);
        if (call !== undefined) call.text += value.delta.partial_json;
      }
    }
  };
  let open: number | undefined;
  deltas.forEach((delta, at) => {
    const texts: string[] = [];
    if (delta.index !== open) {
      if (open !== undefined) texts.push(...repair.push(eventOf("content_block_stop", { index: open })));
      open = delta.index;
      texts.push(
        ...repair.push(
          eventOf("content_block_start", {
            index: delta.index,
            content_block: { type: "tool_use", id: delta.id, name: delta.name, input: {} },
          }),
        ),
      );
    }
    if (delta.arguments !== undefined)
      texts.push(
        ...repair.push(
          eventOf("content_block_delta", {
            index: delta.index,
            delta: { type: "input_json_delta", partial_json: delta.arguments },
          }),
        ),
      );
    read(texts, at);
  });
  const last = deltas.length - 1;
  read(open === undefined ? [] : repair.push(eventOf("content_block_stop", { index: open })), last);
  const texts: string[] = [];
  if (input.finishReason != null)
    texts.push(
      ...repair.push(
        eventOf("message_delta", {
          delta: { stop_reason: STOP_REASONS[input.finishReason] ?? input.finishReason },
        }),
      ),
    );
  texts.push(...repair.end());
  read(texts, "finish");
  return [...calls.entries()].map(([index, call]) => {
    const report = repair.reports.find((entry) => entry.index === index);
    return { ...call, usable: report?.usable ?? true, status: report?.status ?? "object" };
  });
}
