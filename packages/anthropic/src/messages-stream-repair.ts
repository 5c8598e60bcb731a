import { StreamDecider, type StreamEvent } from "@toolcall/core/kit";
import { type BlockSlot, BlockSlots, type SlotFrame } from "./block-slots.js";
import {
  type ContentCallReport,
  finishReasonOf,
  type MessagesRepairOptions,
  type ToolUseReport,
} from "./messages-repair-options.js";
import type { SseEvent } from "./sse-events.js";
import { TextBlockCalls, type TextBlockStep } from "./text-block-calls.js";
import { toolUseReport } from "./tool-use-report.js";

export type {
  ContentCallReport,
  MessagesRepairOptions,
  MessagesStreamReport,
  ToolUseReport,
} from "./messages-repair-options.js";

interface Block {
  start: SseEvent;
  /** The start event's data, read. */
  data: Fields;
  slot: BlockSlot;
  name: string;
  stop?: SseEvent;
  stopData?: Fields;
  stopSent: boolean;
  decided: boolean;
}

interface TextBlock {
  slot: BlockSlot;
  calls: TextBlockCalls;
}

type Fields = Record<string, unknown>;

/**
 * The Messages API stream repair, one server-sent event at a time, mapped onto core's `StreamDecider` (it decides
 * nothing itself): a `tool_use` block's `content_block_start` begins a call, its `input_json_delta` pieces are the
 * call's text, its `content_block_stop` completes it, and `message_delta`'s `stop_reason` finishes the stream
 * (`max_tokens` reads as a length stop). A piece goes on as it came while the input can still begin a JSON object;
 * from the first that cannot (fine-grained tool streaming sends input that is not valid JSON), the block is held, and
 * the `tool_use` blocks after it wait behind it. Once decided, the rest the client needs goes as one more
 * `input_json_delta`, then the block's `content_block_stop`, so the pieces add up to the repaired input.
 *
 * With `syntaxes`, each `text` block is read by `TextBlockCalls` (core's `ContentCallReader`: text goes on as soon
 * as no syntax can start a call with it) and becomes the blocks a whole answer's would (`recoverMessageContentCalls`):
 * text, a `tool_use` block per call, text after it; `stop_reason: "end_turn"` becomes `"tool_use"` once a call was
 * read. With `splitMergedCalls`, merged input becomes one `tool_use` block per call. Every later block's `index` is
 * moved up by the blocks added before it (its events wait while a block before it may still become more). Every
 * other event goes on as it came. Returns the text of the events to send.
 *
 * @example
 * const repair = new MessagesStreamRepair({ repairs: coreRepairs });
 * for (const event of events) for (const text of repair.push(event)) send(text);
 * for (const text of repair.end()) send(text);
 */
export class MessagesStreamRepair {
  readonly #options: MessagesRepairOptions;
  readonly #decider: StreamDecider;
  readonly #slots: BlockSlots;
  readonly #blocks = new Map<number, Block>();
  readonly #texts = new Map<number, TextBlock>();
  /** The slot of each block begun, by its index as it came. */
  readonly #slotByIndex = new Map<number, BlockSlot>();
  /** Text blocks ended by the answer's end before their own stop came. */
  readonly #stopped = new Set<number>();
  #recovered = 0;
  #finished = false;
  #out: string[] = [];
  /** Reports of the blocks decided so far, in order. */
  readonly reports: ToolUseReport[] = [];
  /** The calls read from text blocks so far, in order. */
  readonly recovered: ContentCallReport[] = [];

  constructor(options: MessagesRepairOptions = {}) {
    this.#options = options;
    this.#decider = new StreamDecider({
      repairs: options.repairs ?? [],
      maxDepth: options.maxDepth,
      meter: options.meter,
      ...(options.tools ? { tools: options.tools } : {}),
      splitMergedCalls: options.splitMergedCalls === true,
    });
    this.#slots = new BlockSlots((text) => this.#out.push(text));
  }

  /** Reads one event; returns the text of the events to send, in order. */
  push(event: SseEvent): string[] {
    const out: string[] = [];
    this.#out = out;
    const value = this.#read(event);
    const type = value?.type;
    const index = typeof value?.index === "number" ? value.index : undefined;
    if (value === undefined || type === undefined) this.#slots.send({ type: "", text: event.text });
    else if (index !== undefined && type === "content_block_start") this.#start(event, value, index);
    else if (index !== undefined && type === "content_block_delta") this.#blockDelta(event, value, index);
    else if (index !== undefined && type === "content_block_stop") this.#blockStop(event, value, index);
    else if (type === "message_delta") this.#messageDelta(event, value);
    else this.#slots.send({ type: String(type), text: event.text });
    return out;
  }

  /** The stream ended: blocks still open were cut (no `stop_reason` came), decided as after a length stop. */
  end(): string[] {
    const out: string[] = [];
    this.#out = out;
    this.#endTexts();
    if (!this.#finished) {
      this.#finished = true;
      this.#events(this.#decider.finish(null), undefined);
    }
    this.#slots.end((slot) => this.#texts.get(slot.index)?.calls.count ?? 1);
    return out;
  }

  #read(event: SseEvent): Fields | undefined {
    if (event.data === undefined) return undefined;
    try {
      const value: unknown = JSON.parse(event.data);
      return typeof value === "object" && value !== null && !Array.isArray(value)
        ? (value as Fields)
        : undefined;
    } catch {
      return undefined;
    }
  }

  #start(event: SseEvent, value: Fields, index: number): void {
    const block = value.content_block as Fields | undefined;
    this.#stopped.delete(index);
    // A block begun again at the index of a text block still read: that text block ends first.
    const open = this.#texts.get(index);
    if (open !== undefined) {
      this.#texts.delete(index);
      this.#endText(open);
    }
    if (block?.type === "tool_use") {
      const split = this.#options.splitMergedCalls === true;
      const slot = this.#begin(index, split ? undefined : 1);
      const name = typeof block.name === "string" ? block.name : undefined;
      this.#blocks.set(index, {
        start: event,
        data: value,
        slot,
        name: name ?? "",
        stopSent: false,
        decided: false,
      });
      const id = typeof block.id === "string" ? block.id : undefined;
      this.#events(this.#decider.push({ index, id, name }), event);
      return;
    }
    if (block?.type === "text" && (this.#options.syntaxes?.length ?? 0) > 0) {
      const slot = this.#begin(index, undefined);
      const calls = new TextBlockCalls({
        syntaxes: this.#options.syntaxes ?? [],
        tools: this.#options.tools,
        block,
      });
      this.#texts.set(index, { slot, calls });
      if (typeof block.text === "string" && block.text !== "") this.#steps(slot, calls.push(block.text));
      return;
    }
    const slot = this.#begin(index, 1);
    this.#slots.send({ slot, type: "content_block_start", data: value, text: event.text });
  }

  #blockDelta(event: SseEvent, value: Fields, index: number): void {
    const delta = value.delta as Fields | undefined;
    const block = this.#blocks.get(index);
    if (block !== undefined && delta?.type === "input_json_delta" && typeof delta.partial_json === "string") {
      this.#events(this.#decider.push({ index, arguments: delta.partial_json }), event);
      return;
    }
    const text = this.#texts.get(index);
    if (text !== undefined && delta?.type === "text_delta" && typeof delta.text === "string") {
      this.#steps(text.slot, text.calls.push(delta.text), { event, value });
      return;
    }
    if (text !== undefined) {
      const found = text.calls.textBlock();
      this.#steps(text.slot, found.steps);
      this.#slots.send({ slot: text.slot, sub: found.sub, type: "content_block_delta", data: value });
      return;
    }
    this.#blockFrame(event, value, index);
  }

  #blockStop(event: SseEvent, value: Fields, index: number): void {
    const block = this.#blocks.get(index);
    if (block !== undefined) {
      block.stop = event;
      block.stopData = value;
      if (block.decided) this.#sendStop(block);
      else this.#events(this.#decider.complete({ index }), undefined);
      return;
    }
    const text = this.#texts.get(index);
    if (text !== undefined) {
      this.#texts.delete(index);
      this.#endText(text);
      return;
    }
    if (this.#stopped.delete(index)) return;
    this.#blockFrame(event, value, index);
  }

  /** An event of a block this repair does not read: at its block's place (as it came when not begun). */
  #blockFrame(event: SseEvent, value: Fields, index: number): void {
    const slot = this.#slotByIndex.get(index);
    this.#slots.send(
      slot === undefined
        ? { type: "", text: event.text }
        : { slot, type: String(value.type), data: value, text: event.text },
    );
  }

  #messageDelta(event: SseEvent, value: Fields): void {
    this.#endTexts();
    const delta = value.delta as Fields | undefined;
    let text: string | undefined = event.text;
    let data = value;
    if (this.#recovered > 0 && delta?.stop_reason === "end_turn") {
      data = { ...value, delta: { ...delta, stop_reason: "tool_use" } };
      text = undefined;
    }
    if (!this.#finished && delta?.stop_reason !== undefined && delta.stop_reason !== null) {
      this.#finished = true;
      this.#events(this.#decider.finish(finishReasonOf((data.delta as Fields).stop_reason)), undefined);
    }
    this.#slots.send({ type: "message_delta", data, ...(text === undefined ? {} : { text }) });
  }

  #begin(index: number, count: number | undefined): BlockSlot {
    const slot = this.#slots.begin({ index, count });
    this.#slotByIndex.set(index, slot);
    return slot;
  }

  /** A text block's steps as events at its place; a delta that is the event's own goes as it came. */
  #steps(slot: BlockSlot, steps: readonly TextBlockStep[], own?: { event: SseEvent; value: Fields }): void {
    const ownText = (own?.value.delta as Fields | undefined)?.text;
    for (const step of steps) {
      if (step.type === "start") {
        const call = step.call;
        const frame: SlotFrame = {
          slot,
          sub: step.sub,
          type: "content_block_start",
          data: { type: "content_block_start", index: slot.index, content_block: step.block },
        };
        if (call !== undefined) {
          this.#recovered++;
          frame.onSent = (index) => {
            const report: ContentCallReport = { kind: "content_call", index, ...call };
            this.recovered.push(report);
            this.#options.onRepair?.(report);
          };
        }
        this.#slots.send(frame);
      } else if (step.type === "delta") {
        const mine = own !== undefined && step.delta.type === "text_delta" && step.delta.text === ownText;
        this.#slots.send({
          slot,
          sub: step.sub,
          type: "content_block_delta",
          data: { type: "content_block_delta", index: slot.index, delta: step.delta },
          ...(mine ? { text: own.event.text } : {}),
        });
      } else
        this.#slots.send({
          slot,
          sub: step.sub,
          type: "content_block_stop",
          data: { type: "content_block_stop", index: slot.index },
        });
    }
  }

  #endText(text: TextBlock): void {
    this.#steps(text.slot, text.calls.end());
    this.#slots.settle({ slot: text.slot, count: text.calls.count });
  }

  /** Text blocks never stopped end where the answer does (a stop that still comes has nothing left to stop). */
  #endTexts(): void {
    for (const [index, text] of this.#texts) {
      this.#endText(text);
      this.#stopped.add(index);
    }
    this.#texts.clear();
  }

  #sendStop(block: Block): void {
    if (block.stop === undefined || block.stopSent) return;
    block.stopSent = true;
    this.#slots.send({
      slot: block.slot,
      type: "content_block_stop",
      data: block.stopData,
      text: block.stop.text,
    });
  }

  #delta(block: Block, sub: number, text: string): void {
    this.#slots.send({
      slot: block.slot,
      sub,
      type: "content_block_delta",
      data: {
        type: "content_block_delta",
        index: block.slot.index,
        delta: { type: "input_json_delta", partial_json: text },
      },
    });
  }

  #events(events: readonly StreamEvent[], source: SseEvent | undefined): void {
    for (const event of events) {
      const index = event.call.call.index;
      const block = this.#blocks.get(index) as Block;
      if (event.type === "open") {
        const fromDelta = event.own && source !== undefined && source !== block.start;
        if (!fromDelta)
          this.#slots.send({
            slot: block.slot,
            type: "content_block_start",
            data: block.data,
            text: block.start.text,
          });
        if (event.text !== "") {
          if (fromDelta && this.#pieceOf(source) === event.text) this.#sendSource(block, source);
          else this.#delta(block, 0, event.text);
        }
      } else if (event.type === "text") {
        if (!event.held && source !== undefined) this.#sendSource(block, source);
      } else this.#decided(block, event);
    }
  }

  #sendSource(block: Block, source: SseEvent): void {
    this.#slots.send({
      slot: block.slot,
      type: "content_block_delta",
      data: this.#read(source),
      text: source.text,
    });
  }

  #decided(block: Block, event: Extract<StreamEvent, { type: "decided" }>): void {
    const decision = event.decision;
    block.decided = true;
    if (decision.rest !== "") this.#delta(block, 0, decision.rest);
    this.#sendStop(block);
    const parts = decision.split ?? [];
    // Calls merged into this one: each further call a block of its own, right after it, with the decider's id.
    for (const [sub, part] of parts.entries()) {
      if (sub === 0) continue;
      const at = { slot: block.slot, sub, type: "content_block_start" };
      const toolUse = { type: "tool_use", id: part.id, name: block.name, input: {} };
      this.#slots.send({
        ...at,
        data: { type: "content_block_start", index: block.slot.index, content_block: toolUse },
      });
      this.#delta(block, sub, part.arguments);
      this.#slots.send({
        ...at,
        type: "content_block_stop",
        data: { type: "content_block_stop", index: block.slot.index },
      });
    }
    this.#slots.settle({ slot: block.slot, count: Math.max(1, parts.length) });
    if (!decision.notable) return;
    const report = toolUseReport({
      decision,
      index: block.slot.offset ?? block.slot.index,
      call: { id: event.call.call.id, name: event.call.call.name },
      split: parts,
    });
    this.reports.push(report);
    this.#options.onRepair?.(report);
  }

  #pieceOf(event: SseEvent): string | undefined {
    const delta = this.#read(event)?.delta as Fields | undefined;
    return typeof delta?.partial_json === "string" ? delta.partial_json : undefined;
  }
}
