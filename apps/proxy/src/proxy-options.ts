import type { ProviderOption, SanitizePolicy } from "@toolcall/core";
import type { RepairRule } from "@toolcall/core/kit";
import type { ContentCallExtractor } from "@toolcall/openai";

/** Where the one-line-per-request JSON log goes. */
export interface LogSink {
  write(line: string): unknown;
}

/** `info` logs every request; `error` only those that failed or were refused; `silent` nothing. */
export type LogLevel = "info" | "error" | "silent";

/** Everything `createProxy` takes; only `upstream` is required. */
export interface ProxyOptions {
  /** The one server requests go to, e.g. `http://127.0.0.1:8000` (a trailing `/v1` is read as the same server). */
  upstream: string;
  /** Repairs (RULES.md R6) for responses, streams and request histories. Default: core's. */
  repairs?: readonly RepairRule[];
  /** Requests: what happens to a stored call that cannot be decoded (R4, default `preserve`). */
  historyPolicy?: SanitizePolicy;
  /** Requests: a call without a tool result gets a synthetic one (default) or is dropped. */
  missingResult?: "synthesize" | "drop-call";
  /**
   * Requests: the provider the upstream is (`mistral`, `anthropic`, `deepseek-v4-thinking`, … — core's
   * `PROVIDER_IDS`, or a profile of your own): after R4, what that provider rejects in a history is fixed before the
   * request is forwarded (ids remapped consistently, a bridge message where the role order needs one, …). Default:
   * none (OpenAI's rules only).
   */
  provider?: ProviderOption;
  /** Native tool-call syntaxes to look for in assistant content (Chat Completions). Default: none. */
  contentCalls?: readonly ContentCallExtractor[];
  /** Largest request body accepted, in bytes (default 10 MiB); larger ones get 413. */
  maxBody?: number;
  /**
   * Largest upstream body held for repair, in bytes (default 64 MiB): a whole JSON answer, or one event of a stream
   * (an event not ended within it ends the stream with an `upstream_event_too_large` error frame).
   */
  maxResponseBody?: number;
  /** Milliseconds to connect to the upstream (default 10 s). */
  connectTimeout?: number;
  /**
   * Milliseconds from sending a request to the upstream's response headers (default 2 min; 0: none). A stream's
   * headers come with its first token; a whole (non-streamed) answer's only when it is complete, so a long one needs
   * more.
   */
  headersTimeout?: number;
  /**
   * Milliseconds a request may take in all, from its arrival to the last byte of the answer, streams included
   * (default 0: no limit). Past it, an answer not begun is a 504 `request_deadline`, a stream ends with an `error`
   * frame.
   */
  requestTimeout?: number;
  /**
   * Milliseconds a request body may take to arrive whole, from the request's headers (default 30 s; 0: none). Past
   * it, the request is answered 408 `request_body_timeout` and its connection closed: a client trickling its body
   * keeps no socket.
   */
  bodyTimeout?: number;
  /** Milliseconds the upstream may stay silent inside a response body (default 5 min; 0: none). */
  idleTimeout?: number;
  /** Milliseconds an idle upstream connection is kept for reuse (default 4 s). */
  upstreamKeepAlive?: number;
  /** Milliseconds `drain()` waits for requests in flight before closing them (default 30 s). */
  drainTimeout?: number;
  /** Where log lines go (default: standard output); `null` for none. */
  log?: LogSink | null;
  /** Default `info`. */
  logLevel?: LogLevel;
  /** Adds the arguments before and after each repair to the log line. Off by default: logs carry no content. */
  logContent?: boolean;
}

/**
 * The defaults the proxy and its command line share (sizes in bytes, durations in milliseconds).
 *
 * @example
 * DEFAULTS.maxBody; // 10485760
 */
export const DEFAULTS = {
  maxBody: 10 * 1024 * 1024,
  maxResponseBody: 64 * 1024 * 1024,
  connectTimeout: 10_000,
  headersTimeout: 120_000,
  requestTimeout: 0,
  bodyTimeout: 30_000,
  idleTimeout: 300_000,
  upstreamKeepAlive: 4_000,
  drainTimeout: 30_000,
} as const;
