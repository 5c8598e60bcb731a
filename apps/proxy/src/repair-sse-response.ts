import type { ServerResponse } from "node:http";
import { type OpenAIRepairOptions, repairChatCompletionStream, repairResponseStream } from "@toolcall/openai";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import type { ContentCallExtractor, ExtractionContext } from "./content-call-extractor.js";
import { type ExtractionReport, extractStreamContentCalls } from "./extract-content-calls.js";
import { errorFrame, type ProxyError } from "./proxy-error.js";
import { PushSource } from "./push-source.js";
import type { RepairedApi } from "./repair-json-response.js";
import type { UpstreamCall } from "./upstream-client.js";

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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

class StreamFault extends Error {
  constructor(readonly fault: ProxyError) {
    super(fault.message);
  }
}

/**
 * Repairs an SSE response in flight: the upstream's bytes are parsed into events as they arrive
 * (`eventsource-parser`), chunk objects run through `@toolcall/openai`'s stream repair (content passes at once,
 * each tool call is handed on whole and repaired), and every frame the repair produces is written the moment it is
 * produced. Frames the repair passed on untouched are written with the upstream's own bytes. An upstream error
 * frame is passed on; a fault (reset, idle timeout, a frame that is not JSON) ends the stream with an `error` frame
 * the OpenAI SDKs raise, then a clean end. Slow clients pause the upstream instead of buffering.
 *
 * @example
 * const session = repairSseResponse({ api: "chat.completions", response, options, extractors: [], context, upstream, onDone });
 * // undici's onData / onComplete / onError then call session.onData / onEnd / onError
 */
export function repairSseResponse(args: {
  api: RepairedApi;
  response: ServerResponse;
  options: OpenAIRepairOptions;
  extractors: readonly ContentCallExtractor[];
  context: ExtractionContext;
  onExtract?: (report: ExtractionReport) => void;
  upstream: () => UpstreamCall | undefined;
  onDone: (outcome: StreamOutcome) => void;
}): SseRepairSession {
  const { response } = args;
  const chat = args.api === "chat.completions";
  const raw = new WeakMap<object, string>();
  let stopped = false;
  let sawDone = false;
  let clientClosed = false;
  let terminalFrame: string | undefined;
  let paused = false;
  /**
   * Frames made from one socket read go out in one write: each frame is added here the moment it is made, and the
   * lot is written as soon as the pipeline has turned everything received so far into frames (it waits for more).
   * Nothing waits for the upstream's next bytes.
   */
  let pending = "";
  const flush = (): void => {
    if (pending === "" || response.destroyed || response.writableEnded) return;
    const text = pending;
    pending = "";
    // A slow client pauses the upstream (onData returns false) until its socket drains.
    if (!response.write(text)) paused = true;
  };

  const source = new PushSource<object>({ onReturn: () => args.upstream()?.abort(), onWait: flush });
  const fail = (fault: ProxyError): void => {
    if (stopped) return;
    stopped = true;
    args.upstream()?.abort();
    source.fail(new StreamFault(fault));
  };

  const onEvent = (event: EventSourceMessage): void => {
    if (stopped) return;
    const data = event.data;
    if (data === "[DONE]") {
      sawDone = true;
      stopped = true;
      source.end();
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      fail({
        code: "upstream_invalid_stream",
        status: 502,
        message: "the upstream sent a stream event that is not JSON",
      });
      return;
    }
    if (isObject(value) && (chat ? Array.isArray(value.choices) : typeof value.type === "string")) {
      raw.set(value, data);
      source.push(value);
      return;
    }
    if (isObject(value) && value.error !== undefined) {
      // The upstream reported an error itself: it is passed on as it came, after what the repair still holds.
      terminalFrame = `${event.event === undefined ? "" : `event: ${event.event}\n`}data: ${data}\n\n`;
      stopped = true;
      source.end();
      return;
    }
    fail({
      code: "upstream_invalid_stream",
      status: 502,
      message: `the upstream sent a stream event that is not a ${chat ? "chat.completion.chunk" : "Responses API event"}`,
    });
  };

  const parser = createParser({
    onEvent,
    onComment: (comment) => {
      // Comments are keep-alives: passed on at once, so idle clients and load balancers keep the stream.
      if (stopped) return;
      pending += `:${comment}\n\n`;
      if (source.waiting) flush();
    },
  });
  const decoder = new TextDecoder("utf-8");

  response.on("drain", () => {
    paused = false;
    args.upstream()?.resume();
  });

  const run = async (): Promise<void> => {
    let error: ProxyError | undefined;
    try {
      if (chat) {
        let chunks: AsyncIterable<ChatCompletionChunk> = source as AsyncIterable<ChatCompletionChunk>;
        if (args.extractors.length > 0)
          chunks = extractStreamContentCalls({
            source: chunks,
            extractors: args.extractors,
            context: args.context,
            onReport: args.onExtract,
          });
        for await (const chunk of repairChatCompletionStream(chunks, args.options)) {
          if (clientClosed) break;
          pending += `data: ${raw.get(chunk) ?? JSON.stringify(chunk)}\n\n`;
        }
      } else {
        const events = source as AsyncIterable<ResponseStreamEvent>;
        for await (const event of repairResponseStream(events, args.options)) {
          if (clientClosed) break;
          pending += `event: ${event.type}\ndata: ${raw.get(event) ?? JSON.stringify(event)}\n\n`;
        }
      }
      if (terminalFrame !== undefined) pending += terminalFrame;
      else if (sawDone) pending += "data: [DONE]\n\n";
    } catch (thrown) {
      error =
        thrown instanceof StreamFault
          ? thrown.fault
          : {
              code: "upstream_invalid_stream",
              status: 502,
              message: `the upstream's stream could not be repaired: ${(thrown as Error)?.message ?? String(thrown)}`,
            };
      args.upstream()?.abort();
      pending += errorFrame(error);
    }
    if (!response.writableEnded && !response.destroyed) response.end(pending === "" ? undefined : pending);
    pending = "";
    args.onDone({ error, clientClosed });
  };
  void run();

  return {
    onData(chunk) {
      if (stopped) return true;
      parser.feed(decoder.decode(chunk, { stream: true }));
      return !paused;
    },
    onEnd() {
      if (stopped) return;
      parser.feed(decoder.decode());
      // An event not closed by a blank line is still an event.
      parser.reset({ consume: true });
      if (!stopped) {
        stopped = true;
        source.end();
      }
    },
    onError(error) {
      if (stopped) return;
      stopped = true;
      source.fail(new StreamFault(error));
    },
    onClientClose() {
      clientClosed = true;
      pending = "";
      stopped = true;
      args.upstream()?.abort();
      source.end();
    },
  };
}
