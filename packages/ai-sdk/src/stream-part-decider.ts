import type { FinishReason } from "@toolcall/core";
import type { ToolcallCallReport } from "@toolcall/core/kit";
import { type StreamCall, StreamDecider, type StreamEvent } from "@toolcall/core/kit";
import type { ModelToolCall, StreamPart } from "./ai-sdk-types.js";
import { type DecideOptions, decideToolCall, reportOf } from "./decide-tool-call.js";
import { splitToolCalls } from "./split-tool-calls.js";

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
  /** A call read from text: the syntax it was written in. */
  syntax?: string;
}

/** What the part decider takes: the decide options, and the request's tools (each call typed by its schema). */
export interface StreamPartDeciderOptions extends DecideOptions {
  /** The tools of the request, `{ name, parameters }` (a JSON Schema each). */
  tools?: readonly { name: string; parameters: unknown }[];
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
  readonly #options: StreamPartDeciderOptions;
  readonly #schemas = new Map<string, unknown>();
  readonly #byId = new Map<string, CallParts>();
  readonly #byIndex: CallParts[] = [];
  readonly #external = new Set<string>();
  /** `tool-call` parts in the order they came; each goes on once its call is decided, none before an earlier one. */
  readonly #calls: CallParts[] = [];
  #nextCall = 0;
  #out: StreamPart[] = [];
  /** Reports of the calls decided so far, in order. */
  readonly reports: ToolcallCallReport[] = [];

  constructor(options: StreamPartDeciderOptions = {}) {
    this.#options = options;
    for (const tool of options.tools ?? []) this.#schemas.set(tool.name, tool.parameters);
    this.#decider = new StreamDecider({
      repairs: options.repairs ?? [],
      maxDepth: options.maxDepth,
      ...(options.tools === undefined ? {} : { tools: options.tools }),
      splitMergedCalls: options.splitMergedCalls === true,
    });
  }

  /**
   * A call read from the answer's text (`syntax`: the syntax it was written in), as a `tool-call` part: decided like
   * any other call, reported as recovered.
   */
  pushRecovered(part: Part<"tool-call">, syntax: string): StreamPart[] {
    this.#entry(part.toolCallId, false).syntax = syntax;
    return this.push(part);
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
    const decided = decideToolCall({
      call: part as ModelToolCall,
      finishReason: decision.finishReason ?? undefined,
      repairs: this.#options.repairs,
      maxDepth: this.#options.maxDepth,
      splitMergedCalls: decision.split !== undefined,
      schema: this.#schemas.get(part.toolName),
    });
    const ids = decision.split?.map((call) => call.id);
    const calls = splitToolCalls({ decided, ...(ids === undefined ? {} : { ids }), syntax: entry.syntax });
    const report = reportOf(calls[0] as ModelToolCall);
    if (report !== undefined) this.reports.push(report as ToolcallCallReport);
    for (const [at, call] of calls.entries()) {
      if (at > 0 && entry.streamed) {
        // A call the decider split off: its input comes whole, as the protocol's parts for one call.
        const id = call.toolCallId;
        this.#out.push({ type: "tool-input-start", id, toolName: call.toolName });
        this.#out.push({ type: "tool-input-delta", id, delta: call.input });
        this.#out.push({ type: "tool-input-end", id });
      }
      this.#out.push(call as StreamPart);
    }
  }
}
