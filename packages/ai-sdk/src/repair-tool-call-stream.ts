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

/** Parts the repaired stream keeps queued ahead of its reader: enough to read the source in runs. */
const HIGH_WATER_MARK = 64;

/**
 * A model's stream with each tool call decided by core's rules (see `decideToolCall`). Text, reasoning and
 * tool-input deltas pass as they come. A `tool-call` part whose input is strict JSON is decided at once (no finish
 * reason can change it); any other waits for the `finish` part, so a call cut by a length stop is never repaired
 * into one that runs; a stream that ends without `finish` was cut, and its waiting calls are decided so. Once a call
 * waits, the calls after it wait too, so calls keep their order. The `finish` part carries the summary in
 * `providerMetadata.toolcall`. The source is read on demand (a pull-based stream, not a `TransformStream`: one stage
 * less of the per-part work streams cost), and cancelling the result cancels the source.
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
  return new ReadableStream<StreamPart>(
    {
      async pull(controller) {
        do {
          let next: Awaited<ReturnType<typeof reader.read>>;
          try {
            next = await reader.read();
          } catch (error) {
            controller.error(error);
            return;
          }
          if (next.done) {
            // No finish part: the stream was cut, and so were its waiting calls.
            release(controller, coreFinishReason({ unified: "error" }));
            controller.close();
            return;
          }
          handle(next.value, controller);
        } while ((controller.desiredSize ?? 0) > 0);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: HIGH_WATER_MARK },
  );
}
