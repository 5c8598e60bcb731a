import type { ServerResponse } from "node:http";
import type { ContentCallExtractor, ExtractionContext } from "@toolcall/openai";
import {
  ContentCallStream,
  createSseRepair,
  type ExtractionReport,
  type RepairSummary,
  type SseFaultVerdict,
} from "@toolcall/openai/exchange";
import { errorFrame, type ProxyError } from "./proxy-error.js";
import type { RepairedApi } from "./repair-json-response.js";
import { StreamEndWatch } from "./stream-end-watch.js";
import type { UpstreamCall } from "./upstream-client.js";

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The most of a socket read repaired in one turn of the event loop. */
const SLICE = 16 * 1024;

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
  /** The proxy cuts the stream (drain timeout, deadline): what the repair holds, then an error frame. */
  cut(error: ProxyError): void;
}

/**
 * Repairs an SSE response in flight with `@toolcall/openai`'s exchange repair (`createSseRepair`, the one the guarded
 * `fetch` uses): what each socket read gives is written at once, as one piece; events that cannot hold a call go on
 * as the upstream's own bytes, unread; each call's argument fragments pass as they come while they can, and a call
 * that cannot go on is completed with the repair. With extractors (Chat Completions), every chunk first goes through
 * the recovery of native calls left in content. The proxy keeps its own ending: an upstream error event is passed on
 * after what the repair holds, and the stream ends there; an event that is not JSON or not of the API's shape, a
 * reset, an idle timeout, an end without a finish reason and without `[DONE]` (the answer was cut upstream), or a
 * cut by the proxy (`cut`: drain timeout, deadline) end it with an `error` frame the OpenAI SDKs raise, and so does
 * an event that grows past `maxEventBytes` without ending (`upstream_event_too_large`: memory holds at most one event
 * of that size). Slow clients pause the upstream instead of buffering.
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
  /** The most bytes one event may hold before it ends (`--max-response-body`); a larger one ends the stream. */
  maxEventBytes: number;
}): SseRepairSession {
  const { response } = args;
  const chat = args.api === "chat.completions";
  let stopped = false;
  let paused = false;
  let fault: ProxyError | undefined;
  let upstreamEnded = false;
  const watch = new StreamEndWatch(args.api);
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
    // Events that cannot hold a call go on unread, as the upstream's bytes, but each is checked to be plainly one
    // JSON object (`data: {…}`, no `"error"`): one that is not is read, and if it is not JSON, or not of the API's
    // shape, the stream ends with an error frame.
    checkEvents: true,
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

  /**
   * A large socket read is repaired in slices, one per turn of the event loop, with the upstream paused meanwhile:
   * the work done without yielding stays bounded whatever the read size, so other requests (`/healthz`) are
   * answered in between.
   */
  let queue: Buffer[] = [];
  let scheduled = false;
  let ending = false;
  const repairPiece = (piece: Buffer): void => {
    watch.push(piece);
    write(repair.push(piece));
    // An event that never ends would be held whole: past the limit, the stream ends with an error frame instead.
    if (fault === undefined && repair.heldBytes > args.maxEventBytes)
      fault = {
        code: "upstream_event_too_large",
        status: 502,
        message: `the upstream sent a stream event larger than ${args.maxEventBytes} bytes without ending it (--max-response-body)`,
      };
    if (fault !== undefined) finish(fault);
    else if (upstreamEnded) {
      args.upstream()?.abort();
      finish(undefined);
    }
  };
  const end = (): void => {
    write(repair.end());
    if (fault === undefined && !watch.finished)
      fault = {
        code: "upstream_incomplete_stream",
        status: 502,
        message: `the upstream's stream ended without ${
          chat ? "a finish reason" : "a response.completed event"
        } and without [DONE]: the answer may be cut`,
      };
    finish(fault);
  };
  const pump = (): void => {
    scheduled = false;
    const piece = queue.shift();
    if (stopped) {
      queue = [];
      return;
    }
    if (piece !== undefined) repairPiece(piece);
    if (stopped) return;
    if (queue.length > 0) {
      scheduled = true;
      setImmediate(pump);
    } else if (ending) end();
    else if (!paused) args.upstream()?.resume();
  };

  return {
    onData(chunk) {
      if (stopped) return true;
      if (queue.length === 0 && !scheduled && chunk.length <= SLICE) {
        repairPiece(chunk);
        return !paused;
      }
      for (let at = 0; at < chunk.length; at += SLICE) queue.push(chunk.subarray(at, at + SLICE));
      if (!scheduled) {
        scheduled = true;
        setImmediate(pump);
      }
      return false;
    },
    onEnd() {
      if (stopped) return;
      if (queue.length > 0 || scheduled) {
        ending = true;
        return;
      }
      end();
    },
    cut(error) {
      if (stopped) return;
      queue = [];
      write(repair.end());
      finish(error);
    },
    onError(error) {
      // What came before the error is handed on first.
      for (let piece = queue.shift(); piece !== undefined && !stopped; piece = queue.shift())
        repairPiece(piece);
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
