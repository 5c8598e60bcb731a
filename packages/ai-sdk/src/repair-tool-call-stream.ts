import { decodeArguments, type SanitizeChange } from "@toolcall/core";
import type { ModelToolCall, StreamPart } from "./ai-sdk-types.js";
import { type DecideOptions, decideToolCall, type ToolCallReport } from "./decide-tool-call.js";
import { coreFinishReason } from "./finish-reason.js";
import { withSummary } from "./report-summary.js";

/** Whether a call's input decides the same whatever the finish reason: text that is strict JSON (not blank). */
function decidableNow(input: unknown): boolean {
  if (typeof input !== "string") return false;
  const status = decodeArguments(input).status;
  return status !== "invalid" && status !== "empty" && status !== "absent";
}

/**
 * Parts the repaired stream reads ahead of its reader. The source is read in batches: when at least half of this
 * is free, one read per free slot is issued at once and each part is handled as its read resolves, in order. One
 * batch per half-queue instead of one pull per part keeps the stage's per-part cost to a read and an enqueue.
 */
const READ_AHEAD = 128;

/**
 * A model's stream with each tool call decided by core's rules (see `decideToolCall`). Text, reasoning and
 * tool-input deltas pass as they come. A `tool-call` part whose input is strict JSON is decided at once (no finish
 * reason can change it); any other waits for the `finish` part, so a call cut by a length stop is never repaired
 * into one that runs; a stream that ends without `finish` was cut, and its waiting calls are decided so. Once a call
 * waits, the calls after it wait too, so calls keep their order. The `finish` part carries the summary in
 * `providerMetadata.toolcall`. Every other part is passed on as the same object. The source is read on demand, in
 * batches (a pull-based stream, not a `TransformStream`: a stage costs per part what its reads and enqueues cost),
 * at most 128 parts ahead of the reader; an error of the source errors the result, and cancelling the result
 * cancels the source.
 *
 * @example
 * const { stream, ...rest } = await model.doStream(params);
 * return { ...rest, stream: repairToolCallStream(stream, { repairs: coreRepairs }) };
 */
export function repairToolCallStream(
  source: ReadableStream<StreamPart>,
  options: DecideOptions = {},
  history?: readonly SanitizeChange[],
): ReadableStream<StreamPart> {
  const reader = source.getReader();
  const waiting: ModelToolCall[] = [];
  const reports: ToolCallReport[] = [];
  const decide = (call: ModelToolCall, reason: ReturnType<typeof coreFinishReason>): StreamPart => {
    const decided = decideToolCall(call, options, reason);
    if (decided.report !== undefined) reports.push(decided.report);
    return decided.call as StreamPart;
  };
  const release = (
    controller: ReadableStreamDefaultController<StreamPart>,
    reason: ReturnType<typeof coreFinishReason>,
  ) => {
    for (const call of waiting.splice(0)) controller.enqueue(decide(call, reason));
  };
  const handle = (part: StreamPart, controller: ReadableStreamDefaultController<StreamPart>) => {
    if (part.type === "tool-call") {
      if (part.providerExecuted === true) controller.enqueue(part);
      else if (waiting.length === 0 && decidableNow(part.input)) controller.enqueue(decide(part, undefined));
      else waiting.push(part);
    } else if (part.type === "finish") {
      release(controller, coreFinishReason(part.finishReason));
      const providerMetadata = withSummary(part.providerMetadata, reports, history);
      controller.enqueue(providerMetadata === part.providerMetadata ? part : { ...part, providerMetadata });
    } else {
      controller.enqueue(part);
    }
  };
  let controller!: ReadableStreamDefaultController<StreamPart>;
  let ended = false;
  const fail = (error: unknown) => {
    ended = true;
    controller.error(error);
  };
  const onRead = (next: Awaited<ReturnType<typeof reader.read>>) => {
    if (ended) return;
    try {
      if (!next.done) {
        handle(next.value, controller);
        return;
      }
      // No finish part: the stream was cut, and so were its waiting calls.
      release(controller, coreFinishReason({ unified: "error" }));
      ended = true;
      controller.close();
    } catch (error) {
      fail(error);
    }
  };
  const onError = (error: unknown) => {
    if (!ended) fail(error);
  };
  return new ReadableStream<StreamPart>(
    {
      start(started) {
        controller = started;
      },
      pull(pulled) {
        const free = pulled.desiredSize ?? 0;
        if (free < READ_AHEAD / 2) return;
        let last: Promise<void> | undefined;
        for (let i = 0; i < free; i++) last = reader.read().then(onRead, onError);
        return last;
      },
      cancel(reason) {
        ended = true;
        return reader.cancel(reason);
      },
    },
    { highWaterMark: READ_AHEAD },
  );
}
