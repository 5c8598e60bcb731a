import { finishReasonAtStreamEnd } from "@toolcall/core";
import type {
  ResponseFunctionCallArgumentsDeltaEvent,
  ResponseFunctionCallArgumentsDoneEvent,
  ResponseFunctionToolCall,
  ResponseStreamEvent,
} from "openai/resources/responses/responses";
import type { ArgumentsReport, OpenAIRepairOptions } from "./options.js";
import { repairOutputItem, repairResponse, responseFinishReason } from "./repair-response.js";

interface OpenCall {
  outputIndex: number;
  deltas: string[];
  firstDelta: ResponseFunctionCallArgumentsDeltaEvent | undefined;
  done: ResponseFunctionCallArgumentsDoneEvent | undefined;
}

/**
 * Repairs the function calls of a streamed Responses API result. Every event passes through at once except a
 * call's argument events: its `response.function_call_arguments.delta` events are held back, and when the call's
 * item is done the call is handed on as one delta with the repaired arguments, then its `.done` event and its
 * `response.output_item.done`, both carrying the same text. The final `response.completed` (or `.incomplete`)
 * carries the repaired response. An item cut by the output token limit is truncated and never repaired.
 *
 * @example
 * const stream = await client.responses.create({ model, input, tools, stream: true });
 * for await (const event of repairResponseStream(stream, { repairs: coreRepairs })) { … }
 */
export async function* repairResponseStream(
  source: AsyncIterable<ResponseStreamEvent>,
  options: OpenAIRepairOptions & { reports?: ArgumentsReport[] } = {},
): AsyncGenerator<ResponseStreamEvent, void, undefined> {
  const open = new Map<string, OpenCall>();
  for await (const event of source) {
    switch (event.type) {
      case "response.output_item.added":
        if (event.item.type === "function_call" && event.item.id !== undefined) {
          open.set(event.item.id, {
            outputIndex: event.output_index,
            deltas: [],
            firstDelta: undefined,
            done: undefined,
          });
        }
        yield event;
        break;
      case "response.function_call_arguments.delta": {
        const call = open.get(event.item_id);
        if (call === undefined) {
          yield event;
          break;
        }
        call.firstDelta ??= event;
        call.deltas.push(event.delta);
        break;
      }
      case "response.function_call_arguments.done": {
        const call = open.get(event.item_id);
        if (call === undefined) yield event;
        else call.done = event;
        break;
      }
      case "response.output_item.done": {
        const item = event.item;
        const call = item.type === "function_call" && item.id !== undefined ? open.get(item.id) : undefined;
        if (call === undefined || item.type !== "function_call") {
          yield event;
          break;
        }
        open.delete(item.id as string);
        // The done event's text is the server's whole text; the deltas are the fallback.
        const text = call.done?.arguments ?? (item.arguments || call.deltas.join(""));
        const { item: repaired, report } = repairOutputItem(
          { ...item, arguments: text },
          event.output_index,
          responseFinishReason(item),
          options,
          "stream",
        );
        if (report) options.reports?.push(report);
        const args = (repaired as ResponseFunctionToolCall).arguments;
        if (call.firstDelta) yield { ...call.firstDelta, delta: args };
        if (call.done) yield { ...call.done, arguments: args };
        yield { ...event, item: repaired };
        break;
      }
      case "response.completed":
      case "response.incomplete":
      case "response.failed":
        yield {
          ...event,
          response: repairResponse(event.response, { ...options, onRepair: undefined }).response,
        };
        break;
      default:
        yield event;
    }
  }
  // The stream ended inside calls (a cut connection): what was held is handed on, as truncated text never repaired.
  for (const call of open.values()) {
    if (call.firstDelta === undefined) continue;
    const text = call.done?.arguments ?? call.deltas.join("");
    const { item, report } = repairOutputItem(
      {
        type: "function_call",
        call_id: "",
        name: call.done?.name ?? "",
        arguments: text,
        id: call.firstDelta.item_id,
      },
      call.outputIndex,
      finishReasonAtStreamEnd(null),
      options,
      "stream",
    );
    if (report) options.reports?.push(report);
    yield { ...call.firstDelta, delta: (item as ResponseFunctionToolCall).arguments };
  }
}
