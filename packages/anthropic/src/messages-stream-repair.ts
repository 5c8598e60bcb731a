import type { DecodeStatus, FinishReason, Issue } from "@toolcall/core";
import type { RepairRule } from "@toolcall/core/kit";
import { argumentIssues, StreamDecider, type StreamEvent, type WorkMeter } from "@toolcall/core/kit";
import type { SseEvent } from "./sse-events.js";

/** What became of one streamed `tool_use` block that was not clean JSON object text. */
export interface ToolUseReport {
  kind: "tool_use";
  /** The content block's index in the message. */
  index: number;
  toolUseId: string | undefined;
  name: string;
  /** What decoding found (R1); `repaired` lists its repairs. */
  status: DecodeStatus;
  repairs: string[];
  /** R3 issues of the input as it arrived. */
  issues: Issue[];
  /** Whether a tool can run on the input. One that cannot keeps the model's own text. */
  usable: boolean;
  /** Whether the input text changed. */
  changed: boolean;
  /** The `partial_json` pieces joined, as the model sent them. */
  before: string;
  /** What the client's pieces add up to now. */
  after: string;
  /** How `after` ends (core's `StreamedArguments`): `exact`, `equivalent` or `conflict`. */
  fit: "exact" | "equivalent" | "conflict";
}

/** What a `MessagesStreamRepair` takes: repairs and the nesting limit for streamed `tool_use` input. */
export interface MessagesRepairOptions {
  /** Repairs (R6) tried on input that is not strict JSON, e.g. `coreRepairs`. Default: none. */
  repairs?: readonly RepairRule[];
  /** Nesting limit for input text (default 1000). */
  maxDepth?: number;
  /** Told of every `tool_use` block whose input was not clean JSON object text. */
  onRepair?: (report: ToolUseReport) => void;
  /** Charged the work of the stream's decider (a test counts it; nothing is limited by it). */
  meter?: WorkMeter;
}

/** Anthropic's `stop_reason` as core's finish reason: `max_tokens` cut the answer like OpenAI's `length`. */
function finishReasonOf(stopReason: unknown): FinishReason | null {
  switch (stopReason) {
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "tool_calls";
    case "end_turn":
    case "stop_sequence":
      return "stop";
    default:
      return typeof stopReason === "string" && stopReason !== "" ? stopReason : null;
  }
}

interface Block {
  start: SseEvent;
  stop?: SseEvent;
  stopSent: boolean;
  decided: boolean;
}

type Fields = Record<string, unknown>;

const frame = (type: string, data: Fields): string => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The Messages API stream repair, one server-sent event at a time, mapped onto core's `StreamDecider` (it decides
 * nothing itself): a `tool_use` block's `content_block_start` begins a call, its `input_json_delta` pieces are the
 * call's text, its `content_block_stop` completes it, and `message_delta`'s `stop_reason` finishes the stream
 * (`max_tokens` reads as a length stop). A piece goes on as it came while the input can still begin a JSON object;
 * from the first that cannot (fine-grained tool streaming sends input that is not valid JSON), the block is held, and
 * the `tool_use` blocks after it wait behind it. Once decided, the rest the client needs goes as one more
 * `input_json_delta`, then the block's `content_block_stop`, so the pieces add up to the repaired input. Every other
 * event goes on as it came. Returns the text of the events to send.
 *
 * @example
 * const repair = new MessagesStreamRepair({ repairs: coreRepairs });
 * for (const event of events) for (const text of repair.push(event)) send(text);
 * for (const text of repair.end()) send(text);
 */
export class MessagesStreamRepair {
  readonly #options: MessagesRepairOptions;
  readonly #decider: StreamDecider;
  readonly #blocks = new Map<number, Block>();
  #finished = false;
  #out: string[] = [];
  /** Reports of the blocks decided so far, in order. */
  readonly reports: ToolUseReport[] = [];

  constructor(options: MessagesRepairOptions = {}) {
    this.#options = options;
    this.#decider = new StreamDecider({
      repairs: options.repairs ?? [],
      maxDepth: options.maxDepth,
      meter: options.meter,
    });
  }

  /** Reads one event; returns the text of the events to send, in order. */
  push(event: SseEvent): string[] {
    const out: string[] = [];
    this.#out = out;
    const value = this.#read(event);
    const type = value?.type;
    const index = typeof value?.index === "number" ? value.index : undefined;
    if (type === "content_block_start" && index !== undefined) {
      const block = value?.content_block as Fields | undefined;
      if (block?.type === "tool_use") {
        this.#blocks.set(index, { start: event, stopSent: false, decided: false });
        const id = typeof block.id === "string" ? block.id : undefined;
        const name = typeof block.name === "string" ? block.name : undefined;
        this.#events(this.#decider.push({ index, id, name }), event);
        return out;
      }
    } else if (type === "content_block_delta" && index !== undefined && this.#blocks.has(index)) {
      const delta = value?.delta as Fields | undefined;
      if (delta?.type === "input_json_delta" && typeof delta.partial_json === "string") {
        this.#events(this.#decider.push({ index, arguments: delta.partial_json }), event);
        return out;
      }
    } else if (type === "content_block_stop" && index !== undefined) {
      const block = this.#blocks.get(index);
      if (block !== undefined) {
        block.stop = event;
        if (block.decided) this.#sendStop(block);
        else this.#events(this.#decider.complete({ index }), undefined);
        return out;
      }
    } else if (type === "message_delta" && !this.#finished) {
      const delta = value?.delta as Fields | undefined;
      if (delta?.stop_reason !== undefined && delta.stop_reason !== null) {
        this.#finished = true;
        this.#events(this.#decider.finish(finishReasonOf(delta.stop_reason)), undefined);
      }
    }
    out.push(event.text);
    return out;
  }

  /** The stream ended: blocks still open were cut (no `stop_reason` came), decided as after a length stop. */
  end(): string[] {
    const out: string[] = [];
    this.#out = out;
    if (!this.#finished) {
      this.#finished = true;
      this.#events(this.#decider.finish(null), undefined);
    }
    return out;
  }

  #read(event: SseEvent): Fields | undefined {
    if (event.data === undefined) return undefined;
    try {
      const value: unknown = JSON.parse(event.data);
      return typeof value === "object" && value !== null ? (value as Fields) : undefined;
    } catch {
      return undefined;
    }
  }

  #sendStop(block: Block): void {
    if (block.stop === undefined || block.stopSent) return;
    block.stopSent = true;
    this.#out.push(block.stop.text);
  }

  #delta(index: number, text: string): void {
    this.#out.push(
      frame("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: text },
      }),
    );
  }

  #events(events: readonly StreamEvent[], source: SseEvent | undefined): void {
    for (const event of events) {
      const index = event.call.call.index;
      const block = this.#blocks.get(index) as Block;
      if (event.type === "open") {
        const fromDelta = event.own && source !== undefined && source !== block.start;
        if (!fromDelta) this.#out.push(block.start.text);
        if (event.text !== "") {
          if (fromDelta && this.#pieceOf(source) === event.text) this.#out.push(source.text);
          else this.#delta(index, event.text);
        }
      } else if (event.type === "text") {
        if (!event.held && source !== undefined) this.#out.push(source.text);
      } else {
        const decision = event.decision;
        block.decided = true;
        if (decision.rest !== "") this.#delta(index, decision.rest);
        this.#sendStop(block);
        if (!decision.notable) continue;
        const decoded = decision.answer.decoded;
        const report: ToolUseReport = {
          kind: "tool_use",
          index,
          toolUseId: event.call.call.id,
          name: event.call.call.name,
          status: decoded.status,
          repairs: decoded.repairs,
          issues: argumentIssues(decoded),
          usable: decision.usable,
          changed: decision.changed,
          before: decision.raw,
          after: decision.text,
          fit: decision.fit,
        };
        this.reports.push(report);
        this.#options.onRepair?.(report);
      }
    }
  }

  #pieceOf(event: SseEvent): string | undefined {
    const delta = this.#read(event)?.delta as Fields | undefined;
    return typeof delta?.partial_json === "string" ? delta.partial_json : undefined;
  }
}
