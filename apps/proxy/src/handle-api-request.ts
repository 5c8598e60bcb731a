import type { IncomingMessage, ServerResponse } from "node:http";
import type { OpenAIRepairOptions } from "@toolcall/openai";
import type { ExtractionContext } from "./content-call-extractor.js";
import type { ExtractionReport } from "./extract-content-calls.js";
import { requestHeadersForUpstream, responseHeadersForClient } from "./forward-headers.js";
import { errorBody } from "./proxy-error.js";
import { countRepair, elapsedMs, type ProxyRuntime, type RequestState, sendError } from "./proxy-runtime.js";
import { type RepairedApi, repairJsonResponse } from "./repair-json-response.js";
import { repairSseResponse, type SseRepairSession } from "./repair-sse-response.js";
import { sanitizeRequestBody } from "./sanitize-request-body.js";

/** Error bodies are small; a larger one is cut (only its start is shown). */
const MAX_ERROR_BODY = 64 * 1024;

/** The repair options for one request: the proxy's own, with reports counted for its log line and metrics. */
function requestOptions(runtime: ProxyRuntime, state: RequestState, api: RepairedApi): OpenAIRepairOptions {
  const { options } = runtime;
  return {
    repairs: options.repairs,
    policy: options.policy,
    sanitize: { policy: options.historyPolicy, missingResult: options.missingResult },
    onRepair(report) {
      if (report.kind === "history") {
        countRepair({ runtime, state, api, source: "request", rule: report.change.rule });
        if (options.logContent) state.repairDetails?.push({ source: "request", ...report.change });
        return;
      }
      const rules = report.repairs.length > 0 ? report.repairs : [report.status];
      for (const rule of rules) countRepair({ runtime, state, api, source: report.source, rule });
      if (options.logContent)
        state.repairDetails?.push({
          source: report.source,
          toolCallId: report.toolCallId,
          status: report.status,
          repairs: report.repairs,
          before: report.before,
          after: report.after,
        });
    },
  };
}

function onExtract(runtime: ProxyRuntime, state: RequestState, source: string) {
  return (report: ExtractionReport): void => {
    const rule =
      report.kind === "tool_call"
        ? `content-calls:${report.extractor}`
        : `${report.extractor}:${report.issue.code}`;
    countRepair({ runtime, state, api: "chat.completions", source, rule });
  };
}

/** A flat `[name, value, …]` header list without one header. */
function withoutHeader(headers: readonly string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < headers.length; i += 2)
    if ((headers[i] as string).toLowerCase() !== name)
      out.push(headers[i] as string, headers[i + 1] as string);
  return out;
}

/** An upstream error body as an OpenAI-style error: kept when it already is one, wrapped otherwise. */
function upstreamErrorBody(status: number, body: Buffer): Buffer {
  try {
    const parsed = JSON.parse(body.toString("utf8")) as { error?: unknown };
    if (typeof parsed === "object" && parsed !== null && parsed.error !== undefined) return body;
  } catch {
    // Not JSON (an HTML page from a gateway, a plain-text message): wrapped below.
  }
  const text = body.toString("utf8").replace(/\s+/g, " ").trim().slice(0, 200);
  return Buffer.from(
    errorBody({
      code: "upstream_status",
      status,
      message: `the upstream answered HTTP ${status}${text === "" ? "" : `: ${text}`}`,
    }),
  );
}

/**
 * `POST /v1/chat/completions` and `POST /v1/responses`: the history is sanitized before it goes up (R4), and what
 * comes down is repaired (R1, R6, R7, R9): a JSON body whole, an SSE stream frame by frame as it arrives. Error
 * answers from the upstream reach the client as OpenAI-style errors with the upstream's status.
 *
 * @example
 * handleApiRequest({ runtime, state, request, response, body, api: "chat.completions" });
 */
export function handleApiRequest(args: {
  runtime: ProxyRuntime;
  state: RequestState;
  request: IncomingMessage;
  response: ServerResponse;
  body: Buffer | null;
  api: RepairedApi;
}): void {
  const { runtime, state, request, response, api } = args;
  if (runtime.options.logContent) state.repairDetails = [];
  const options = requestOptions(runtime, state, api);

  let sent = args.body;
  let context: ExtractionContext = { tools: [] };
  if (args.body !== null && args.body.length > 0) {
    const started = process.hrtime.bigint();
    try {
      const sanitized = sanitizeRequestBody({ api, body: args.body, options });
      sent = sanitized.body;
      state.stream = sanitized.stream;
      context = { tools: sanitized.tools };
    } catch (error) {
      // A history core could not read is sent as it came; the upstream answers it as it would have.
      runtime.logger.event("error", "sanitize failed", {
        requestId: state.id,
        error: (error as Error).message,
      });
    }
    // The same reading ends the sanitize time and starts the upstream's.
    state.upstreamSent = process.hrtime.bigint();
    runtime.metrics.processing.observe(
      { route: state.route, stage: "sanitize" },
      Number(state.upstreamSent - started) / 1e9,
    );
  }

  type Mode = "json" | "sse" | "error" | "pass";
  let mode: Mode = "json";
  let status = 0;
  let headers: string[] = [];
  let chunks: Buffer[] = [];
  let size = 0;
  let overflow = false;
  let session: SseRepairSession | undefined;

  state.upstreamSent ??= process.hrtime.bigint();
  const call = runtime.upstream.send(
    {
      method: "POST",
      path: request.url as string,
      headers: requestHeadersForUpstream({
        rawHeaders: request.rawHeaders,
        identity: true,
        connection: request.headers.connection,
      }),
      body: sent,
    },
    {
      onHeaders(upstreamStatus, rawHeaders) {
        state.upstreamMs = elapsedMs(state.upstreamSent as bigint);
        runtime.metrics.upstreamHeaders.observe({ route: state.route }, state.upstreamMs / 1000);
        status = upstreamStatus;
        const forwarded = responseHeadersForClient({ rawHeaders });
        state.upstreamRequestId = forwarded.requestId;
        const encoding = forwarded.contentEncoding;
        const ok = status >= 200 && status < 300;
        if (encoding !== undefined && encoding !== "identity") mode = "pass";
        else if (!ok) mode = "error";
        else if ((forwarded.contentType ?? "").startsWith("text/event-stream")) mode = "sse";
        else mode = "json";
        headers = forwarded.headers;
        // The length stays only on a body passed on as it is; a stream's encoding header (identity) goes too.
        if (mode === "pass" && forwarded.contentLength !== undefined)
          headers.push("content-length", forwarded.contentLength);
        if (mode === "sse" && encoding !== undefined) headers = withoutHeader(headers, "content-encoding");
        if (state.upstreamRequestId === undefined) headers.push("x-request-id", state.id);
        if (mode === "pass") {
          response.on("drain", () => call.resume());
          response.writeHead(status, headers);
          return;
        }
        if (mode === "sse") {
          state.stream = true;
          response.writeHead(status, headers);
          response.flushHeaders();
          session = repairSseResponse({
            api,
            response,
            options,
            extractors: api === "chat.completions" ? runtime.options.contentCalls : [],
            context,
            onExtract: onExtract(runtime, state, "stream"),
            upstream: () => call,
            onDone: (outcome) => {
              if (outcome.error !== undefined) {
                state.error = outcome.error;
                runtime.metrics.upstreamErrors.inc({ route: state.route, code: outcome.error.code });
              }
            },
          });
          const sse = session;
          response.on("close", () => {
            if (!response.writableFinished) sse.onClientClose();
          });
        }
      },
      onData(chunk) {
        switch (mode) {
          case "pass":
            return response.write(chunk);
          case "sse":
            return (session as SseRepairSession).onData(chunk);
          case "json":
          case "error": {
            if (overflow) return true;
            size += chunk.length;
            const limit = mode === "json" ? runtime.options.maxResponseBody : MAX_ERROR_BODY;
            if (size > limit) {
              overflow = true;
              if (mode === "json") {
                call.abort();
                sendError({
                  runtime,
                  state,
                  response,
                  error: {
                    code: "upstream_response_too_large",
                    status: 502,
                    message: `the upstream's response is larger than ${limit} bytes`,
                  },
                });
              }
              return true;
            }
            chunks.push(chunk);
            return true;
          }
          default: {
            const never: never = mode;
            return never;
          }
        }
      },
      onEnd() {
        if (mode === "pass") {
          response.end();
          return;
        }
        if (mode === "sse") {
          (session as SseRepairSession).onEnd();
          return;
        }
        if (overflow && mode === "json") return;
        const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        chunks = [];
        if (mode === "error") {
          if (status >= 500)
            runtime.metrics.upstreamErrors.inc({ route: state.route, code: "upstream_status" });
          state.error = { code: "upstream_status", status, message: `the upstream answered HTTP ${status}` };
          const errorBytes = upstreamErrorBody(status, body);
          const errorHeaders = errorBytes === body ? headers : withoutHeader(headers, "content-type");
          if (errorBytes !== body) errorHeaders.push("content-type", "application/json");
          errorHeaders.push("content-length", String(errorBytes.length));
          response.writeHead(status, errorHeaders);
          response.end(errorBytes);
          return;
        }
        const started = process.hrtime.bigint();
        const repaired = repairJsonResponse({
          api,
          body,
          options,
          extractors: api === "chat.completions" ? runtime.options.contentCalls : [],
          context,
          onExtract: onExtract(runtime, state, "response"),
        });
        runtime.metrics.processing.observe(
          { route: state.route, stage: "repair" },
          elapsedMs(started) / 1000,
        );
        if (!repaired.ok) {
          sendError({
            runtime,
            state,
            response,
            error: { code: "upstream_invalid_response", status: 502, message: repaired.message },
          });
          return;
        }
        headers.push("content-length", String(repaired.body.length));
        response.writeHead(status, headers);
        response.end(repaired.body);
      },
      onError(error) {
        if (mode === "sse" && session !== undefined) {
          session.onError(error);
          return;
        }
        sendError({ runtime, state, response, error });
      },
    },
  );
  state.call = call;
}
