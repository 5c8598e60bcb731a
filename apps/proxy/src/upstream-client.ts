import { type Dispatcher, Pool } from "undici";
import { classifyUpstreamError } from "./classify-upstream-error.js";
import type { ProxyError } from "./proxy-error.js";
import type { UpstreamTarget } from "./upstream-target.js";

/** What the proxy does with an upstream response, piece by piece as it arrives. */
export interface UpstreamHandler {
  /** The final status and headers (informational 1xx responses are skipped). */
  onHeaders(status: number, rawHeaders: Buffer[]): void;
  /** A piece of the body. Return `false` to pause the upstream until `resume()` is called. */
  onData(chunk: Buffer): boolean;
  onEnd(): void;
  /** Called at most once, and never after `abort()`. */
  onError(error: ProxyError): void;
}

/** One request in flight to the upstream. */
export interface UpstreamCall {
  /** Stops the request and closes its connection (the upstream sees the client leave). No callback follows. */
  abort(): void;
  /** Resumes a body paused by `onData` returning `false`. */
  resume(): void;
}

export interface UpstreamClientOptions {
  target: UpstreamTarget;
  connectTimeout: number;
  headersTimeout: number;
  idleTimeout: number;
  keepAlive: number;
}

/**
 * One request in flight: undici's handler for it and the proxy's handle on it, in one object (a request costs one
 * allocation here, not a closure per callback). Guards that no callback reaches the proxy after `abort()`, and that
 * the end or an error is reported once.
 */
class UpstreamDispatch implements Dispatcher.DispatchHandlers, UpstreamCall {
  readonly #handler: UpstreamHandler;
  #abort: ((reason?: Error) => void) | undefined;
  #resume: (() => void) | undefined;
  #aborted = false;
  #settled = false;

  constructor(handler: UpstreamHandler) {
    this.#handler = handler;
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.#abort = abort;
    if (this.#aborted) abort();
  }

  onHeaders(status: number, rawHeaders: Buffer[], resume: () => void): boolean {
    if (status < 200) return true;
    this.#resume = resume;
    if (this.#aborted) return false;
    this.#handler.onHeaders(status, rawHeaders);
    return !this.#aborted;
  }

  onData(chunk: Buffer): boolean {
    if (this.#aborted) return false;
    return this.#handler.onData(chunk);
  }

  onComplete(): void {
    if (this.#aborted || this.#settled) return;
    this.#settled = true;
    this.#handler.onEnd();
  }

  onError(error: Error): void {
    if (this.#aborted || this.#settled) return;
    this.#settled = true;
    this.#handler.onError(classifyUpstreamError(error));
  }

  abort(): void {
    if (this.#aborted || this.#settled) return;
    this.#aborted = true;
    this.#abort?.();
  }

  resume(): void {
    this.#resume?.();
  }
}

/**
 * The proxy's only way out: a connection pool bound to the configured upstream's origin, so no request can be sent
 * anywhere else. Uses undici's handler API (raw buffers, pause and resume, no stream objects in between), which
 * measured fastest of the stacks tried (see the README). Requests are never retried: a completion is not idempotent.
 *
 * @example
 * const client = new UpstreamClient({ target, connectTimeout: 10_000, headersTimeout: 0, idleTimeout: 0, keepAlive: 4_000 });
 * client.send({ method: "GET", path: "/v1/models", headers: [], body: null }, handler);
 */
export class UpstreamClient {
  readonly #pool: Pool;
  readonly #prefix: string;

  constructor(options: UpstreamClientOptions) {
    this.#prefix = options.target.pathPrefix;
    this.#pool = new Pool(options.target.origin, {
      connect: { timeout: options.connectTimeout },
      headersTimeout: options.headersTimeout,
      bodyTimeout: options.idleTimeout,
      keepAliveTimeout: options.keepAlive,
      keepAliveMaxTimeout: Math.max(options.keepAlive, 1),
      pipelining: 1,
    });
  }

  /** Connections open to the upstream, and requests on them. */
  get stats(): { connected: number; running: number; pending: number } {
    const { connected, running, pending } = this.#pool.stats;
    return { connected, running, pending };
  }

  send(
    request: { method: string; path: string; headers: string[]; body: Uint8Array | null },
    handler: UpstreamHandler,
  ): UpstreamCall {
    const call = new UpstreamDispatch(handler);
    this.#pool.dispatch(
      {
        path: this.#prefix + request.path,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.body,
      },
      call,
    );
    return call;
  }

  /** Waits for requests in flight, then closes every connection. */
  close(): Promise<void> {
    return this.#pool.close();
  }

  /** Closes every connection now. */
  destroy(): Promise<void> {
    return this.#pool.destroy();
  }
}
