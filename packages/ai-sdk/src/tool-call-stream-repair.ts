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
 * A transform over a model's stream parts that decides each tool call with core's rules (see `decideToolCall`).
 * Text, reasoning and tool-input deltas pass as they come. A `tool-call` part whose input is strict JSON is decided
 * at once (no finish reason can change it); any other waits for the `finish` part, so a call cut by a length stop
 * is never repaired into one that runs; a stream that ends without `finish` was cut, and its waiting calls are
 * decided so. Once a call waits, the calls after it wait too, so calls keep their order. The `finish` part carries
 * the summary in `providerMetadata.toolcall`.
 *
 * @example
 * const { stream, ...rest } = await model.doStream(params);
 * return { ...rest, stream: stream.pipeThrough(createToolCallStreamRepair({ repairs: coreRepairs })) };
 */
export function createToolCallStreamRepair(
  options: DecideOptions = {},
  history?: readonly SanitizeChange[],
): TransformStream<StreamPart, StreamPart> {
  const waiting: ModelToolCall[] = [];
  const reports: ToolCallReport[] = [];
  const decide = (call: ModelToolCall, reason: ReturnType<typeof coreFinishReason>): StreamPart => {
    const decided = decideToolCall(call, options, reason);
    if (decided.report !== undefined) reports.push(decided.report);
    return decided.call as StreamPart;
  };
  const release = (
    controller: TransformStreamDefaultController<StreamPart>,
    reason: ReturnType<typeof coreFinishReason>,
  ) => {
    for (const call of waiting.splice(0)) controller.enqueue(decide(call, reason));
  };
  return new TransformStream<StreamPart, StreamPart>({
    transform(part, controller) {
      if (part.type === "tool-call") {
        if (part.providerExecuted === true) controller.enqueue(part);
        else if (waiting.length === 0 && decidableNow(part.input))
          controller.enqueue(decide(part, undefined));
        else waiting.push(part);
        return;
      }
      if (part.type === "finish") {
        release(controller, coreFinishReason(part.finishReason));
        const providerMetadata = withSummary(part.providerMetadata, reports, history);
        controller.enqueue(providerMetadata === part.providerMetadata ? part : { ...part, providerMetadata });
        return;
      }
      controller.enqueue(part);
    },
    flush(controller) {
      // No finish part: the stream was cut, and so were its waiting calls.
      release(controller, coreFinishReason({ unified: "error" }));
    },
  });
}
