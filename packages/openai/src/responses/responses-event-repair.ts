import { finishReasonAtStreamEnd, StreamedArguments } from "@toolcall/core/kit";
import type {
  ResponseFunctionCallArgumentsDeltaEvent,
  ResponseFunctionCallArgumentsDoneEvent,
  ResponseFunctionToolCall,
  ResponseOutputItem,
  ResponseStreamEvent,
} from "openai/resources/responses/responses";
import type { ArgumentsReport, OpenAIRepairOptions } from "../options.js";
import { decideStreamedArguments } from "../repair-arguments.js";
import type { RepairedEvent } from "../repaired-event.js";
import { repairOutputItem, responsesFinishReason } from "./repair-responses-result.js";

interface OpenCall {
  itemId: string;
  outputIndex: number;
  gate: StreamedArguments;
  raw: string;
  firstHeld: ResponseFunctionCallArgumentsDeltaEvent | undefined;
  done: ResponseFunctionCallArgumentsDoneEvent | undefined;
}

type Fields = Record<string, unknown>;

/**
 * The Responses API stream repair, one event at a time and synchronously, for every door onto it. A function call's
 * `response.function_call_arguments.delta` events go on as they come while core's `StreamedArguments` allows; a
 * call that cannot go on is held to its end. When its item is done the call is decided by core's fresh-answer rule:
 * the rest its client needs goes as one more delta, then its `.done` event and its `response.output_item.done`,
 * both carrying the text the deltas add up to (the `.done` event waits for the item: only the item says whether the
 * output token limit cut it). `response.completed` (or `.incomplete`, `.failed`) carries the same texts. Events
 * nothing was changed in come back as themselves.
 *
 * @example
 * const repair = new ResponsesEventRepair({ repairs: coreRepairs });
 * for (const event of events) for (const out of repair.push(event)) send(out.value);
 * for (const out of repair.end()) send(out.value);
 */
export class ResponsesEventRepair {
  readonly #options: OpenAIRepairOptions;
  readonly #open = new Map<string, OpenCall>();
  /** The text each decided call's client holds, by item id. */
  readonly #decided = new Map<string, string>();
  #out: Array<RepairedEvent<ResponseStreamEvent>> = [];
  /** Reports of the calls decided so far, in order. */
  readonly reports: ArgumentsReport[] = [];

  constructor(options: OpenAIRepairOptions = {}) {
    this.#options = options;
  }

  /** Whether a call is open: its events must be read. */
  get open(): boolean {
    return this.#open.size > 0;
  }

  /** Reads one event; returns what to hand on, in order. */
  push(event: ResponseStreamEvent): Array<RepairedEvent<ResponseStreamEvent>> {
    this.#out = [];
    this.#event(event);
    return this.#out;
  }

  /** The stream ended: calls still open were cut, and what they hold goes on as cut text, never repaired. */
  end(): Array<RepairedEvent<ResponseStreamEvent>> {
    this.#out = [];
    for (const call of this.#open.values()) {
      const text = this.#decide(call, call.done?.arguments ?? call.raw, finishReasonAtStreamEnd(null), "");
      if (call.done !== undefined) this.#edit(call.done, "arguments", text);
    }
    this.#open.clear();
    return this.#out;
  }

  #same(event: ResponseStreamEvent): void {
    this.#out.push({ kind: "same", value: event });
  }

  /** The event with one string field changed (the same event when it already holds that text). */
  #edit(event: ResponseStreamEvent, key: string, text: string): void {
    if ((event as unknown as Fields)[key] === text) {
      this.#same(event);
      return;
    }
    this.#out.push({
      kind: "edited",
      value: { ...event, [key]: text } as ResponseStreamEvent,
      redo: (exact) => ({ ...(exact as Fields), [key]: text }),
    });
  }

  #event(event: ResponseStreamEvent): void {
    switch (event.type) {
      case "response.output_item.added": {
        const item = event.item;
        if (item.type === "function_call" && typeof item.id === "string") {
          this.#open.set(item.id, {
            itemId: item.id,
            outputIndex: event.output_index,
            gate: new StreamedArguments({ maxDepth: this.#options.maxDepth }),
            raw: "",
            firstHeld: undefined,
            done: undefined,
          });
        }
        this.#same(event);
        return;
      }
      case "response.function_call_arguments.delta": {
        const call = this.#open.get(event.item_id);
        if (call === undefined || typeof event.delta !== "string") {
          this.#same(event);
          return;
        }
        call.raw += event.delta;
        if (call.gate.push(event.delta)) this.#same(event);
        else call.firstHeld ??= event;
        return;
      }
      case "response.function_call_arguments.done": {
        const call = this.#open.get(event.item_id);
        if (call === undefined) this.#same(event);
        else call.done = event;
        return;
      }
      case "response.output_item.done": {
        const item = event.item;
        const call =
          item.type === "function_call" && item.id !== undefined ? this.#open.get(item.id) : undefined;
        if (call === undefined || item.type !== "function_call") {
          this.#same(event);
          return;
        }
        this.#open.delete(call.itemId);
        // The done event's text is the server's whole text; the item's and the deltas' are the fallbacks.
        const raw = call.done?.arguments ?? (item.arguments || call.raw);
        const text = this.#decide(call, raw, responsesFinishReason(item), item.call_id);
        if (call.done !== undefined) this.#edit(call.done, "arguments", text);
        if (item.arguments === text) this.#same(event);
        else
          this.#out.push({
            kind: "edited",
            value: { ...event, item: { ...item, arguments: text } },
            redo: (exact) => {
              const record = exact as Fields;
              return { ...record, item: { ...(record.item as Fields), arguments: text } };
            },
          });
        return;
      }
      case "response.completed":
      case "response.incomplete":
      case "response.failed":
        this.#final(event);
        return;
      default:
        this.#same(event);
    }
  }

  /** The final response: every function call with the text its client holds (decided now if it was not streamed). */
  #final(event: Extract<ResponseStreamEvent, { response: unknown }>): void {
    const response = event.response;
    if (!Array.isArray(response?.output)) {
      this.#same(event);
      return;
    }
    const texts = new Map<number, string>();
    response.output.forEach((item: ResponseOutputItem, index: number) => {
      if (item.type !== "function_call") return;
      const decided = item.id === undefined ? undefined : this.#decided.get(item.id);
      const text =
        decided ??
        ((
          repairOutputItem(item, index, responsesFinishReason(item, response), this.#options, "stream")
            .item as ResponseFunctionToolCall
        ).arguments as string);
      if (text !== item.arguments) texts.set(index, text);
    });
    if (texts.size === 0) {
      this.#same(event);
      return;
    }
    const rewrite = (output: unknown[]): unknown[] =>
      output.map((item, index) =>
        texts.has(index) ? { ...(item as Fields), arguments: texts.get(index) } : item,
      );
    this.#out.push({
      kind: "edited",
      value: { ...event, response: { ...response, output: rewrite(response.output) } } as ResponseStreamEvent,
      redo: (exact) => {
        const record = exact as Fields;
        const inner = record.response as Fields;
        return { ...record, response: { ...inner, output: rewrite(inner.output as unknown[]) } };
      },
    });
  }

  /** Core's decision on a whole call, reported once; sends the rest of its text; returns what its client holds. */
  #decide(
    call: OpenCall,
    raw: string,
    finishReason: ReturnType<typeof responsesFinishReason>,
    id: string,
  ): string {
    const end = decideStreamedArguments({
      api: "responses",
      index: call.outputIndex,
      id: id === "" ? undefined : id,
      name: call.done?.name,
      raw,
      finishReason,
      gate: call.gate,
      options: this.#options,
    });
    if (end.report !== undefined) this.reports.push(end.report);
    if (end.rest !== "") {
      const template = call.firstHeld ?? {
        type: "response.function_call_arguments.delta" as const,
        item_id: call.itemId,
        output_index: call.outputIndex,
        sequence_number: call.done?.sequence_number ?? 0,
        delta: "",
      };
      this.#out.push({ kind: "new", value: { ...template, delta: end.rest } as ResponseStreamEvent });
    }
    this.#decided.set(call.itemId, end.text);
    return end.text;
  }
}
