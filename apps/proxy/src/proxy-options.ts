import type { RepairRule, SanitizePolicy } from "@toolcall/core";
import type { ContentCallExtractor } from "./content-call-extractor.js";

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
  /** Native tool-call syntaxes to look for in assistant content (Chat Completions). Default: none. */
  contentCalls?: readonly ContentCallExtractor[];
  /** Largest request body accepted, in bytes (default 10 MiB); larger ones get 413. */
  maxBody?: number;
  /** Largest upstream JSON body buffered for repair, in bytes (default 64 MiB). */
  maxResponseBody?: number;
  /** Milliseconds to connect to the upstream (default 10 s). */
  connectTimeout?: number;
  /** Milliseconds from sending a request to the upstream's response headers (default 10 min; 0: none). */
  headersTimeout?: number;
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
  headersTimeout: 600_000,
  idleTimeout: 300_000,
  upstreamKeepAlive: 4_000,
  drainTimeout: 30_000,
} as const;
