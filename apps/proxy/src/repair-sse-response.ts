import type { ServerResponse } from "node:http";
import { createSseRepair, type RepairSummary, type SseFaultVerdict } from "@toolcall/openai";
import type { ContentCallExtractor, ExtractionContext } from "./content-call-extractor.js";
import { ContentCallStream, type ExtractionReport } from "./extract-content-calls.js";
import { errorFrame, type ProxyError } from "./proxy-error.js";
import type { RepairedApi } from "./repair-json-response.js";
import type { UpstreamCall } from "./upstream-client.js";

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** How a repaired stream ended, for the log and the metrics. */
export interface StreamOutcome {
  error: ProxyError | undefined;
  /** The client left before the end. */
  clientClosed: boolean;
}

/** The upstream side of a stream being repaired: undici's callbacks feed it. */
export interface SseRepairSession {
  onData(chunk: Buffer): boolean;
  onEnd(): void;
  onError(error: ProxyError): void;
  /** The client left: stop everything. */
  onClientClose(): void;
}

/**
 * Repairs an SSE response in flight with `@toolcall/openai`'s exchange repair (`createSseRepair`, the one the guarded
 * `fetch` uses): what each socket read gives is written at once, as one piece; events that cannot hold a call go on
 * as the upstream's own bytes, unread; each call's argument fragments pass as they come while they can, and a call
 * that cannot go on is completed with the repair. With extractors (Chat Completions), every chunk first goes through
 * the recovery of native calls left in content. The proxy keeps its own ending: an upstream error event is passed on
 * after what the repair holds, and the stream ends there; an event that is not JSON or not of the API's shape, a
 * reset or an idle timeout end it with an `error` frame the OpenAI SDKs raise. Slow clients pause the upstream
 * instead of buffering.
 *
 * @example
 * const session = repairSseResponse({ api: "chat.completions", response, summary, extractors: [], context, upstream, onDone });
 * // undici's onData / onComplete / onError then call session.onData / onEnd / onError
 */
export function repairSseResponse(args: {
  api: RepairedApi;
  response: ServerResponse;
  /** The exchange's summary, whose options (repairs, `onRepair`) the repair uses. */
  summary: RepairSummary;
  extractors: readonly ContentCallExtractor[];
  context: ExtractionContext;
  onExtract?: (report: ExtractionReport) => void;
  upstream: () => UpstreamCall | undefined;
  onDone: (outcome: StreamOutcome) => void;
}): SseRepairSession {
  const { response } = args;
  const chat = args.api === "chat.completions";
  let stopped = false;
  let paused = false;
  let fault: ProxyError | undefined;
  let upstreamEnded = false;
  const prepare =
    chat && args.extractors.length > 0
      ? new ContentCallStream({
          extractors: args.extractors,
          context: args.context,
          onReport: args.onExtract,
        })
      : undefined;
  const repair = createSseRepair({
    api: args.api,
    summary: args.summary,
    // Every event is read: one that is not JSON, or not of the API's shape, ends the stream with an error frame.
    readAll: true,
    ...(prepare === undefined ? {} : { prepare }),
    onFault: (found): SseFaultVerdict => {
      // The upstream reported an error itself: passed on as it came, after what the repair still holds; the
      // stream ends there.
      if (found.code === "upstream_error") {
        upstreamEnded = true;
        return "end";
      }
      fault = {
        code: "upstream_invalid_stream",
        status: 502,
        message: `the upstream sent a stream event that is not ${
          isJson(found.data) ? `a ${chat ? "chat.completion.chunk" : "Responses API event"}` : "JSON"
        }`,
      };
      return "stop";
    },
  });

  const write = (pieces: Uint8Array[]): void => {
    if (response.destroyed || response.writableEnded) return;
    // A slow client pauses the upstream (onData returns false) until its socket drains.
    for (const piece of pieces) if (!response.write(piece)) paused = true;
  };

  const finish = (error: ProxyError | undefined, clientClosed = false): void => {
    if (stopped) return;
    stopped = true;
    if (error !== undefined) args.upstream()?.abort();
    if (!response.writableEnded && !response.destroyed)
      response.end(error === undefined ? undefined : errorFrame(error));
    args.onDone({ error, clientClosed });
  };

  response.on("drain", () => {
    paused = false;
    args.upstream()?.resume();
  });

  return {
    onData(chunk) {
      if (stopped) return true;
      write(repair.push(chunk));
      if (fault !== undefined) finish(fault);
      else if (upstreamEnded) {
        args.upstream()?.abort();
        finish(undefined);
      }
      return !paused;
    },
    onEnd() {
      if (stopped) return;
      write(repair.end());
      finish(fault);
    },
    onError(error) {
      finish(error);
    },
    onClientClose() {
      if (stopped) return;
      stopped = true;
      args.upstream()?.abort();
      args.onDone({ error: undefined, clientClosed: true });
    },
  };
}
