import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, Server as NetServer, type Socket } from "node:net";
import { coreRepairs } from "@toolcall/core";
import { checkRequestTarget } from "./check-request-target.js";
import { handleApiRequest } from "./handle-api-request.js";
import { handlePassthrough } from "./handle-passthrough.js";
import { errorBody } from "./proxy-error.js";
import { createProxyMetrics, type ProxyMetrics, type RouteName } from "./proxy-metrics.js";
import { DEFAULTS, type ProxyOptions } from "./proxy-options.js";
import { cutRequest, elapsedMs, type ProxyRuntime, type RequestState, sendError } from "./proxy-runtime.js";
import { closeWhenAnswered, receiveRequestBody } from "./receive-request-body.js";
import type { RepairedApi } from "./repair-json-response.js";
import { requestIdOf } from "./request-id.js";
import { createLogger, type ProxyLogger } from "./request-log.js";
import { UpstreamClient } from "./upstream-client.js";
import { parseUpstream } from "./upstream-target.js";

/** A running (or ready to run) proxy. */
export interface ToolcallProxy {
  server: Server;
  metrics: ProxyMetrics;
  logger: ProxyLogger;
  /** Starts listening; resolves with the address actually bound. */
  listen(args: { port: number; host: string }): Promise<AddressInfo>;
  /**
   * Stops accepting connections, lets requests in flight finish (streams included) for up to `drainTimeout`, then
   * closes everything and writes out the log lines still held. `timedOut` tells whether some had to be cut.
   */
  drain(): Promise<{ timedOut: boolean }>;
  /** Closes everything now, and writes out the log lines still held. */
  close(): Promise<void>;
  /** Requests being answered. */
  readonly inFlight: number;
  /** Client connections open, and connections open to the upstream. */
  sockets(): { clients: number; upstream: number };
}

const API_ROUTES: Record<string, RepairedApi> = {
  "/v1/chat/completions": "chat.completions",
  "/chat/completions": "chat.completions",
  "/v1/responses": "responses",
  "/responses": "responses",
};

/** A client that vanished mid-write: the response's close handler accounts for it. */
function ignoreError(): void {}

function routeOf(method: string, pathname: string): RouteName {
  if (pathname === "/healthz" && (method === "GET" || method === "HEAD")) return "healthz";
  if (pathname === "/metrics" && method === "GET") return "metrics";
  if (method === "POST") {
    const api = API_ROUTES[pathname];
    if (api !== undefined) return api;
  }
  return "passthrough";
}

/**
 * Creates the proxy: an HTTP server that forwards to one upstream only, sanitizing the history of Chat Completions
 * and Responses API requests and repairing the tool calls in their answers, streams included; `/healthz` and
 * `/metrics` are its own; every other path passes through unchanged. Stateless: run more copies behind any load
 * balancer to scale. An invalid upstream URL is an error result, not a throw.
 *
 * @example
 * const created = createProxy({ upstream: "http://127.0.0.1:8000" });
 * if (created.ok) await created.proxy.listen({ port: 8001, host: "127.0.0.1" });
 */
export function createProxy(
  options: ProxyOptions,
): { ok: true; proxy: ToolcallProxy } | { ok: false; error: string } {
  const target = parseUpstream(options.upstream);
  if (!target.ok) return target;
  const metrics = createProxyMetrics();
  const level = options.logLevel ?? "info";
  // Standard output gets its lines in batches of bytes; a sink passed in gets each line as it is made.
  const logger =
    options.log === undefined
      ? createLogger({ sink: process.stdout, level, batch: true })
      : createLogger({ sink: options.log, level });
  const upstream = new UpstreamClient({
    target,
    connectTimeout: options.connectTimeout ?? DEFAULTS.connectTimeout,
    headersTimeout: options.headersTimeout ?? DEFAULTS.headersTimeout,
    idleTimeout: options.idleTimeout ?? DEFAULTS.idleTimeout,
    keepAlive: options.upstreamKeepAlive ?? DEFAULTS.upstreamKeepAlive,
  });
  const runtime: ProxyRuntime = {
    options: {
      repairs: options.repairs ?? coreRepairs,
      sanitize: {
        policy: options.historyPolicy ?? "preserve",
        missingResult: options.missingResult ?? "synthesize",
      },
      provider: options.provider,
      contentCalls: options.contentCalls ?? [],
      maxBody: options.maxBody ?? DEFAULTS.maxBody,
      maxResponseBody: options.maxResponseBody ?? DEFAULTS.maxResponseBody,
      logContent: options.logContent ?? false,
    },
    upstream,
    metrics,
    logger,
  };
  const drainTimeout = options.drainTimeout ?? DEFAULTS.drainTimeout;
  const requestTimeout = options.requestTimeout ?? DEFAULTS.requestTimeout;
  const bodyTimeout = options.bodyTimeout ?? DEFAULTS.bodyTimeout;
  /** Requests being answered, with their response, so a drain that times out can end each readably. */
  const active = new Map<RequestState, ServerResponse>();

  let draining = false;
  let inFlight = 0;
  let idle: (() => void) | undefined;
  const clients = new Set<Socket>();

  const finish = (state: RequestState, response: ServerResponse): void => {
    active.delete(state);
    clearTimeout(state.deadline);
    const completed = response.writableFinished;
    state.clientClosed = !completed && state.error === undefined;
    if (state.clientClosed) state.call?.abort();
    const status = state.clientClosed ? 499 : response.statusCode;
    const seconds = elapsedMs(state.started) / 1000;
    metrics.requests.inc({ route: state.route, method: state.method, status });
    metrics.duration.observe(
      { route: state.route, stream: state.stream === true ? "true" : "false" },
      seconds,
    );
    metrics.inFlight.set(state.route, (metrics.inFlight.get(state.route) ?? 1) - 1);
    logger.request({
      requestId: state.id,
      method: state.method,
      path: state.path,
      route: state.route,
      status,
      durationMs: Math.round(seconds * 1e6) / 1e3,
      upstreamMs: state.upstreamMs === undefined ? undefined : Math.round(state.upstreamMs * 1e3) / 1e3,
      stream: state.stream,
      repairs: state.repairs,
      history: state.history,
      repairDetails: state.repairDetails?.length ? state.repairDetails : undefined,
      error: state.error === undefined ? undefined : { code: state.error.code, message: state.error.message },
      clientClosed: state.clientClosed || undefined,
      upstreamRequestId: state.upstreamRequestId,
    });
    inFlight--;
    // Connections stay open while draining (a prober on one is answered 503); all close when the drain ends.
    if (draining && inFlight === 0) idle?.();
  };

  const onRequest = (request: IncomingMessage, response: ServerResponse): void | Promise<void> => {
    const started = process.hrtime.bigint();
    response.on("error", ignoreError);
    const method = request.method ?? "GET";
    const checked = checkRequestTarget(request.url);
    const route: RouteName = checked.ok ? routeOf(method, checked.pathname) : "refused";
    const state: RequestState = {
      id: requestIdOf(request.headers["x-request-id"]),
      route,
      method,
      path: checked.ok ? checked.pathname : "",
      started,
      stream: undefined,
      upstreamSent: undefined,
      upstreamMs: undefined,
      repairs: undefined,
      repairDetails: undefined,
      error: undefined,
      clientClosed: false,
      upstreamRequestId: undefined,
      call: undefined,
      deadline: undefined,
    };
    active.set(state, response);
    inFlight++;
    metrics.inFlight.set(route, (metrics.inFlight.get(route) ?? 0) + 1);
    response.on("close", () => finish(state, response));
    if (draining) response.shouldKeepAlive = false;

    if (!checked.ok) {
      response.shouldKeepAlive = false;
      sendError({
        runtime,
        state,
        response,
        error: { code: checked.code, status: 400, message: checked.message },
      });
      return;
    }
    if (route === "healthz") {
      const body = JSON.stringify({ status: draining ? "draining" : "ok" });
      response.writeHead(draining ? 503 : 200, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "cache-control": "no-store",
      });
      response.end(method === "HEAD" ? undefined : body);
      request.resume();
      return;
    }
    if (route === "metrics") {
      request.resume();
      return metrics.registry.metrics().then((text) => {
        response.writeHead(200, {
          "content-type": metrics.registry.contentType,
          "content-length": Buffer.byteLength(text),
        });
        response.end(text);
      });
    }
    if (requestTimeout > 0)
      state.deadline = setTimeout(() => {
        // The connection ends with the 504: a client still sending its body keeps no socket.
        if (!response.headersSent) closeWhenAnswered({ request, response });
        cutRequest({
          runtime,
          state,
          response,
          error: {
            code: "request_deadline",
            status: 504,
            message: `the request took longer than its deadline (${requestTimeout} ms)`,
          },
        });
      }, requestTimeout);
    const api = route === "chat.completions" || route === "responses" ? route : undefined;
    receiveRequestBody(
      { runtime, state, request, response, decode: api !== undefined, timeout: bodyTimeout },
      (body) => {
        // A throw (a bug, never bad input) is logged and answered 500, never a crash.
        try {
          if (api !== undefined) handleApiRequest({ runtime, state, request, response, body, api });
          else handlePassthrough({ runtime, state, request, response, body });
        } catch (error) {
          internalError(response, error);
        }
      },
    );
  };

  /** Runs a request's handler (no closure per request); a throw is logged and answered 500, never a crash. */
  const serve = (request: IncomingMessage, response: ServerResponse): void => {
    try {
      const pending = onRequest(request, response);
      if (pending !== undefined) pending.catch((error: unknown) => internalError(response, error));
    } catch (error) {
      internalError(response, error);
    }
  };

  const internalError = (response: ServerResponse, error: unknown): void => {
    logger.event("error", "request failed", { error: (error as Error)?.message ?? String(error) });
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const body = errorBody({ code: "internal_error", status: 500, message: "internal error" });
    response.writeHead(500, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
    });
    response.end(body);
  };

  const server = createServer(serve);
  server.keepAliveTimeout = 65_000;
  server.on("connection", (socket: Socket) => {
    clients.add(socket);
    socket.once("close", () => clients.delete(socket));
  });
  // CONNECT is what a forward proxy serves; this one refuses it.
  server.on("connect", (_request: IncomingMessage, socket: Socket) => {
    socket.end("HTTP/1.1 405 Method Not Allowed\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
  });

  const proxy: ToolcallProxy = {
    server,
    metrics,
    logger,
    listen({ port, host }) {
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          resolve(server.address() as AddressInfo);
        });
      });
    },
    async drain() {
      draining = true;
      // No new connection is accepted, but open ones are kept (not `server.close()`, which closes idle keep-alive
      // connections since Node 19): a health prober on one gets the documented 503 `draining`, not a refusal.
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      let timedOut = false;
      if (inFlight > 0) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          idle = resolve;
          if (drainTimeout > 0)
            timer = setTimeout(() => {
              timedOut = true;
              resolve();
            }, drainTimeout);
        });
        clearTimeout(timer);
      }
      if (timedOut) {
        // Each request still in flight is ended readably (a stream with an error frame), then given a moment to
        // reach its client before the connections close.
        const cut = new Promise<void>((resolve) => {
          idle = resolve;
        });
        for (const [state, response] of [...active])
          cutRequest({
            runtime,
            state,
            response,
            error: {
              code: "proxy_draining",
              status: 503,
              message: `the proxy is shutting down: the request was still running after ${drainTimeout} ms`,
            },
          });
        if (inFlight > 0) {
          let grace: NodeJS.Timeout | undefined;
          await Promise.race([cut, new Promise((resolve) => (grace = setTimeout(resolve, 1000)))]);
          clearTimeout(grace);
        }
      }
      server.closeAllConnections();
      await closed;
      await (timedOut ? upstream.destroy() : upstream.close());
      logger.flush();
      return { timedOut };
    },
    async close() {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await upstream.destroy();
      logger.flush();
    },
    get inFlight() {
      return inFlight;
    },
    sockets() {
      return { clients: clients.size, upstream: upstream.stats.connected };
    },
  };
  return { ok: true, proxy };
}
