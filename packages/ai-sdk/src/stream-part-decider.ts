import type { FinishReason } from "@toolcall/core";
import { type StreamCall, StreamDecider, type StreamEvent } from "@toolcall/core/kit";
import type { ModelToolCall, StreamPart } from "./ai-sdk-types.js";
import { type DecideOptions, decideToolCall, type ToolCallReport } from "./decide-tool-call.js";

type Part<T extends StreamPart["type"]> = Extract<StreamPart, { type: T }>;

/** What the stream said of one call: its parts held until the decider lets them go. */
interface CallParts {
  index: number;
  /** Whether its input came as `tool-input-*` parts (then those go on; otherwise only its `tool-call` part). */
  streamed: boolean;
  start?: Part<"tool-input-start">;
  end?: Part<"tool-input-end">;
  toolCall?: Part<"tool-call">;
  call?: StreamCall;
}

/**
 * The AI SDK's stream parts mapped onto core's `StreamDecider`: `tool-input-start` and `tool-input-delta` are a
 * call's pieces, `tool-input-end` (or a `tool-call` part that came without them) completes it, `finish` finishes.
 * What the decider lets through goes on: a part as the same object when it passes as it came; the rest a held call
 * needs as one more `tool-input-delta`; its `tool-input-end` and its `tool-call` part (with the decided input) once
 * it is decided. Nothing is decided here.
 *
 * @example
 * const parts = new StreamPartDecider({ repairs: coreRepairs });
 * for (const part of source) for (const out of parts.push(part)) send(out);
 * for (const out of parts.end()) send(out);
 */
export class StreamPartDecider {
  readonly #decider: StreamDecider;
  readonly #options: DecideOptions;
  readonly #byId = new Map<string, CallParts>();
  readonly #byIndex: CallParts[] = [];
  readonly #external = new Set<string>();
  /** `tool-call` parts in the order they came; each goes on once its call is decided, none before an earlier one. */
  readonly #calls: CallParts[] = [];
  #nextCall = 0;
  #out: StreamPart[] = [];
  /** Reports of the calls decided so far, in order. */
  readonly reports: ToolCallReport[] = [];

  constructor(options: DecideOptions = {}) {
    this.#options = options;
    this.#decider = new StreamDecider({ repairs: options.repairs ?? [], maxDepth: options.maxDepth });
  }

  /** Reads one part; returns the parts to hand on, in order. */
  push(part: StreamPart): StreamPart[] {
    const out: StreamPart[] = [];
    this.#out = out;
    switch (part.type) {
      case "tool-input-start": {
        if (part.providerExecuted === true) this.#external.add(part.id);
        if (this.#external.has(part.id)) break;
        const entry = this.#entry(part.id, true);
        entry.start = part;
        this.#events(this.#decider.push({ index: entry.index, id: part.id, name: part.toolName }), part);
        return out;
      }
      case "tool-input-delta": {
        if (this.#external.has(part.id)) break;
        const entry = this.#entry(part.id, true);
        this.#events(this.#decider.push({ index: entry.index, id: part.id, arguments: part.delta }), part);
        return out;
      }
      case "tool-input-end": {
        const entry = this.#byId.get(part.id);
        if (entry === undefined || this.#external.has(part.id)) break;
        entry.end = part;
        if (entry.call?.decision !== undefined) out.push(part);
        else this.#events(this.#decider.complete({ index: entry.index }), undefined);
        return out;
      }
      case "tool-call": {
        if (part.providerExecuted === true || this.#external.has(part.toolCallId)) break;
        const known = this.#byId.get(part.toolCallId);
        const entry = known ?? this.#entry(part.toolCallId, false);
        entry.toolCall = part;
        this.#calls.push(entry);
        if (known === undefined || !known.streamed) {
          const input = typeof part.input === "string" ? part.input : "";
          this.#events(
            this.#decider.push({
              index: entry.index,
              id: part.toolCallId,
              name: part.toolName,
              arguments: input,
            }),
            undefined,
          );
        }
        if (entry.call?.decision === undefined)
          this.#events(this.#decider.complete({ index: entry.index }), undefined);
        this.#flushCalls();
        return out;
      }
      default:
        break;
    }
    out.push(part);
    return out;
  }

  /** The stream finished (`null`: it ended without a finish part, so it was cut): every call still open is decided. */
  finish(finishReason: FinishReason | null | undefined): StreamPart[] {
    const out: StreamPart[] = [];
    this.#out = out;
    this.#events(this.#decider.finish(finishReason ?? null), undefined);
    return out;
  }

  #entry(id: string, streamed: boolean): CallParts {
    let entry = this.#byId.get(id);
    if (entry === undefined) {
      entry = { index: this.#byIndex.length, streamed };
      this.#byId.set(id, entry);
      this.#byIndex.push(entry);
    }
    return entry;
  }

  #events(events: readonly StreamEvent[], part: StreamPart | undefined): void {
    for (const event of events) {
      const entry = this.#byIndex[event.call.call.index] as CallParts;
      entry.call = event.call;
      const id = event.call.call.id ?? "";
      if (event.type === "open") {
        if (!entry.streamed) continue;
        if (event.own && part?.type === "tool-input-start") this.#out.push(part);
        else if (event.own && part?.type === "tool-input-delta" && event.text === part.delta) {
          this.#out.push(part);
          continue;
        } else if (entry.start !== undefined) this.#out.push(entry.start);
        if (event.text !== "") this.#out.push({ type: "tool-input-delta", id, delta: event.text });
      } else if (event.type === "text") {
        if (event.held) continue;
        this.#out.push(
          part?.type === "tool-input-delta" && part.delta === event.text
            ? part
            : { type: "tool-input-delta", id, delta: event.text },
        );
      } else {
        if (entry.streamed && event.decision.rest !== "")
          this.#out.push({ type: "tool-input-delta", id, delta: event.decision.rest });
        if (entry.end !== undefined) this.#out.push(entry.end);
        this.#flushCalls();
      }
    }
  }

  #flushCalls(): void {
    for (;;) {
      const entry = this.#calls[this.#nextCall];
      if (entry?.call?.decision === undefined) return;
      this.#nextCall++;
      this.#decidedCall(entry);
    }
  }

  /** A decided call's `tool-call` part: itself when clean, else with the decided input and its report. */
  #decidedCall(entry: CallParts): void {
    const part = entry.toolCall as Part<"tool-call">;
    const decision = entry.call?.decision;
    if (decision === undefined) return;
    // The part's input is the call's whole input as the SDK reads it (a value, or "" that is empty rather than
    // absent): core's fresh-answer rule on it, with the finish reason the decider decided the call with.
    const decided = decideToolCall(part as ModelToolCall, this.#options, decision.finishReason ?? undefined);
    if (decided.report !== undefined) this.reports.push(decided.report);
    this.#out.push(decided.call as StreamPart);
  }
}
