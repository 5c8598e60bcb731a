import type { StreamPart } from "./ai-sdk-types.js";
import { ContentCallParts } from "./content-call-parts.js";
import { coreFinishReason } from "./finish-reason.js";
import type { RepairGenerateOptions } from "./repair-generate-result.js";
import { withSummary } from "./report-summary.js";
import { StreamPartDecider } from "./stream-part-decider.js";

/**
 * Parts the repaired stream reads ahead of its reader. The source is read in batches: when at least half of this
 * is free, one read per free slot is issued at once and each part is handled as its read resolves, in order. One
 * batch per half-queue instead of one pull per part keeps the stage's per-part cost to a read and an enqueue.
 */
const READ_AHEAD = 128;

/**
 * A model's stream with each tool call decided by core's `StreamDecider` (see `StreamPartDecider`). Text and
 * reasoning pass as they come; a call's `tool-input-delta` parts pass while its input can still begin a JSON object,
 * and from the first that cannot, the call is held and the calls after it wait behind it (calls keep their order).
 * A call whose input is whole JSON is decided once complete (no finish reason can change it); any other waits for
 * the `finish` part, so a call cut by a length stop is never repaired into one that runs; a stream that ends without
 * `finish` was cut, and its waiting calls are decided so. A held call's rest comes as one more `tool-input-delta`
 * before its `tool-input-end`, so the deltas add up to the decided input. The `finish` part carries the summary in
 * `providerMetadata.toolcall` (core's `ToolcallReport`). With `contentCalls`, text goes through core's
 * `ContentCallReader` first: a call a server left in the text becomes a `tool-call` part decided like any other
 * (a finish of `stop` becomes `tool-calls`). Every other part is passed on as the same object. The source is read on demand, in
 * batches (a pull-based stream, not a `TransformStream`: a stage costs per part what its reads and enqueues cost),
 * at most 128 parts ahead of the reader; an error of the source errors the result, and cancelling the result
 * cancels the source.
 *
 * @example
 * const { stream, ...rest } = await model.doStream(params);
 * return { ...rest, stream: repairToolCallStream({ stream, repairs: coreRepairs }) };
 */
export function repairToolCallStream(
  args: RepairGenerateOptions & { stream: ReadableStream<StreamPart> },
): ReadableStream<StreamPart> {
  const reader = args.stream.getReader();
  const parts = new StreamPartDecider(args);
  const text = new ContentCallParts({
    context: { syntaxes: args.contentCalls ?? [], tools: args.tools ?? [] },
  });
  const pass = (part: StreamPart, controller: ReadableStreamDefaultController<StreamPart>) => {
    if (!text.active) {
      for (const out of parts.push(part)) controller.enqueue(out);
      return;
    }
    route(text.push(part), controller);
  };
  const route = (
    reads: ReturnType<ContentCallParts["end"]>,
    controller: ReadableStreamDefaultController<StreamPart>,
  ) => {
    for (const read of reads) {
      const outs = "recovered" in read ? parts.pushRecovered(read.recovered, read.syntax) : parts.push(read);
      for (const out of outs) controller.enqueue(out);
    }
  };
  const handle = (part: StreamPart, controller: ReadableStreamDefaultController<StreamPart>) => {
    if (part.type !== "finish") {
      pass(part, controller);
      return;
    }
    route(text.end(), controller);
    for (const out of parts.finish(coreFinishReason(part.finishReason) ?? null)) controller.enqueue(out);
    const providerMetadata = withSummary({
      metadata: part.providerMetadata,
      calls: parts.reports,
      history: args.history,
      onReport: args.onReport,
    });
    const finishReason =
      text.found > 0 && part.finishReason.unified === "stop"
        ? { ...part.finishReason, unified: "tool-calls" as const }
        : part.finishReason;
    controller.enqueue(
      providerMetadata === part.providerMetadata && finishReason === part.finishReason
        ? part
        : { ...part, providerMetadata, finishReason },
    );
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
      route(text.end(), controller);
      for (const out of parts.finish(null)) controller.enqueue(out);
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
