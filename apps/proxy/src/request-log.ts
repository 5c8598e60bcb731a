import type { LogLevel, LogSink } from "./proxy-options.js";

/** One request's log line: what was asked, what happened, how long it took. Never headers, never content. */
export interface RequestLogEntry {
  requestId: string;
  method: string;
  /** The path without its query string (a query may carry keys). */
  path: string;
  route: string;
  status: number;
  durationMs: number;
  upstreamMs?: number | undefined;
  stream?: boolean | undefined;
  /** Rule or status ids and how often each applied. */
  repairs?: Record<string, number> | undefined;
  /** Only with `logContent`: the arguments before and after each change. */
  repairDetails?: unknown[] | undefined;
  error?: { code: string; message: string } | undefined;
  clientClosed?: boolean | undefined;
  upstreamRequestId?: string | undefined;
}

/** Writes structured JSON lines: one per request, and a few for the process's own events. */
export interface ProxyLogger {
  request(entry: RequestLogEntry): void;
  event(level: "info" | "warn" | "error", message: string, fields?: Record<string, unknown>): void;
  /** Writes out lines still held (with `batch`); call before the process exits. */
  flush(): void;
}

/**
 * A logger that writes one JSON object per line. No logging library: the proxy writes one short line per request,
 * built from fields it chose (never headers or bodies), so a library's redaction, transports and level hierarchy
 * would add a dependency and no safety. With `batch`, the lines of one event-loop turn go out in one write (one
 * system call instead of one per request under load); nothing waits longer than that turn.
 *
 * @example
 * const logger = createLogger({ sink: process.stdout, level: "info" });
 * logger.event("info", "listening", { port: 8001 });
 * // {"time":"…","level":"info","msg":"listening","port":8001}
 */
export function createLogger(args: { sink: LogSink | null; level: LogLevel; batch?: boolean }): ProxyLogger {
  const { sink, level } = args;
  let held = "";
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (held === "" || sink === null) return;
    const text = held;
    held = "";
    try {
      sink.write(text);
    } catch {
      // A broken log sink must not take requests down with it.
    }
  };
  const write = (line: Record<string, unknown>): void => {
    if (sink === null) return;
    held += `${JSON.stringify(line)}\n`;
    if (!args.batch) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  return {
    flush,
    request(entry) {
      // `error`: the proxy or the upstream failed; `warn`: the client's request was refused.
      const severity =
        entry.status >= 500 || entry.error?.code.startsWith("upstream_")
          ? "error"
          : entry.error
            ? "warn"
            : "info";
      if (level === "silent" || (level === "error" && severity === "info")) return;
      write({ time: new Date().toISOString(), level: severity, msg: "request", ...entry });
    },
    event(eventLevel, message, fields) {
      if (level === "silent" || (level === "error" && eventLevel !== "error")) return;
      write({ time: new Date().toISOString(), level: eventLevel, msg: message, ...fields });
    },
  };
}
