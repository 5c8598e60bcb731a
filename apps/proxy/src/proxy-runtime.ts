import type { ServerResponse } from "node:http";
import type { ProviderOption, SanitizePolicy } from "@toolcall/core";
import type { RepairRule } from "@toolcall/core/kit";
import type { ContentCallExtractor } from "@toolcall/openai";
import { type ClientResponseHeaders, responseHeadersForClient } from "./forward-headers.js";
import { errorBody, type ProxyError } from "./proxy-error.js";
import type { ProxyMetrics, RouteName } from "./proxy-metrics.js";
import type { ProxyLogger } from "./request-log.js";
import type { UpstreamCall, UpstreamClient } from "./upstream-client.js";

/** The proxy's options with every default filled in. */
export interface ResolvedOptions {
  repairs: readonly RepairRule[];
  /** What sanitize does with a call it cannot decode, and with a call that has no result (RULES.md R4). */
  sanitize: { policy: SanitizePolicy; missingResult: "synthesize" | "drop-call" };
  /** The provider profile requests are made acceptable to, if any. */
  provider: ProviderOption | undefined;
  contentCalls: readonly ContentCallExtractor[];
  maxBody: number;
  maxResponseBody: number;
  logContent: boolean;
}

/** What every request handler shares. */
export interface ProxyRuntime {
  options: ResolvedOptions;
  upstream: UpstreamClient;
  metrics: ProxyMetrics;
  logger: ProxyLogger;
}

/** One request as it goes: what the log line and the metrics will say about it. */
export interface RequestState {
  id: string;
  route: RouteName;
  method: string;
  path: string;
  started: bigint;
  stream: boolean | undefined;
  upstreamSent: bigint | undefined;
  upstreamMs: number | undefined;
  /** What was repaired in the answer (rules, decode statuses, content-call recoveries), for the log line. */
  repairs: Map<string, number> | undefined;
  /** What sanitize changed in the request's history (its change codes), apart from the answer's repairs. */
  history?: Map<string, number> | undefined;
  repairDetails: unknown[] | undefined;
  error: ProxyError | undefined;
  clientClosed: boolean;
  upstreamRequestId: string | undefined;
  /** The upstream request in flight, to abort when the client leaves. */
  call: UpstreamCall | undefined;
  /**
   * Ends the request now with an error (drain timeout, deadline): set by a handler that ends its own way (a stream
   * with an error frame after what the repair holds); otherwise {@link cutRequest} answers it.
   */
  cut?: ((error: ProxyError) => void) | undefined;
  /** The timer of the request's total deadline, when one is set. */
  deadline: NodeJS.Timeout | undefined;
}

/**
 * Ends a request in flight with an error the client can read: a stream gets an `error` frame (its handler's
 * `cut`), an answer not begun gets the error with its status; an answer half sent is closed (the client sees the
 * cut). The upstream request is closed.
 *
 * @example
 * cutRequest({ runtime, state, response, error: { code: "request_deadline", status: 504, message: "…" } });
 */
export function cutRequest(args: {
  runtime: ProxyRuntime;
  state: RequestState;
  response: ServerResponse;
  error: ProxyError;
}): void {
  const { state, response } = args;
  if (response.writableEnded || response.destroyed) return;
  if (state.cut !== undefined) {
    state.cut(args.error);
    return;
  }
  state.call?.abort();
  sendError(args);
}

/**
 * Counts one applied rule for the log line and the metrics.
 *
 * @example
 * countRepair({ runtime, state, api: "chat.completions", source: "stream", rule: "python-literal" });
 */
export function countRepair(args: {
  runtime: ProxyRuntime;
  state: RequestState;
  api: string;
  source: string;
  rule: string;
}): void {
  // The request's history changes and the answer's repairs are counted apart: their names come from two vocabularies.
  const { state } = args;
  if (args.source === "request") state.history ??= new Map();
  else state.repairs ??= new Map();
  const counts = (args.source === "request" ? state.history : state.repairs) as Map<string, number>;
  counts.set(args.rule, (counts.get(args.rule) ?? 0) + 1);
  args.runtime.metrics.repairs.inc({ api: args.api, source: args.source, rule: args.rule });
}

/**
 * Answers with an OpenAI-style error (when nothing was sent yet; otherwise the connection is closed, so the client
 * sees the cut), counted as an upstream error when it is one.
 *
 * @example
 * sendError({ runtime, state, response, error: { code: "upstream_unreachable", status: 502, message: "…" } });
 */
export function sendError(args: {
  runtime: ProxyRuntime;
  state: RequestState;
  response: ServerResponse;
  error: ProxyError;
}): void {
  const { response, error, state } = args;
  state.error = error;
  if (error.code.startsWith("upstream_"))
    args.runtime.metrics.upstreamErrors.inc({ route: state.route, code: error.code });
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = errorBody(error);
  response.writeHead(error.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "x-request-id": state.id,
  });
  response.end(body);
}

/**
 * Milliseconds since `since` (a `process.hrtime.bigint()` reading).
 *
 * @example
 * const started = process.hrtime.bigint();
 * elapsedMs(started); // 0.012
 */
export function elapsedMs(since: bigint): number {
  return Number(process.hrtime.bigint() - since) / 1e6;
}

/**
 * The upstream's answer has begun: its time to headers is recorded and observed, its headers read for the client
 * (see `responseHeadersForClient`), and its request id kept for the log line; when it sent none, the proxy's own id
 * goes to the client instead.
 *
 * @example
 * const { headers, contentLength } = upstreamHeadersArrived({ runtime, state, rawHeaders });
 */
export function upstreamHeadersArrived(args: {
  runtime: ProxyRuntime;
  state: RequestState;
  rawHeaders: readonly Buffer[];
}): ClientResponseHeaders {
  const { state } = args;
  state.upstreamMs = elapsedMs(state.upstreamSent as bigint);
  args.runtime.metrics.upstreamHeaders.observe({ route: state.route }, state.upstreamMs / 1000);
  const forwarded = responseHeadersForClient({ rawHeaders: args.rawHeaders });
  state.upstreamRequestId = forwarded.requestId;
  if (forwarded.requestId === undefined) forwarded.headers.push("x-request-id", state.id);
  return forwarded;
}
