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
  /** The answer's repairs: rule or status ids and how often each applied. */
  repairs?: ReadonlyMap<string, number> | undefined;
  /** The request's history: sanitize's change codes and how often each applied. */
  history?: ReadonlyMap<string, number> | undefined;
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

/** Lines held longer than this (milliseconds) are written out, however few. */
export const LOG_BATCH_MS = 10;
/** Held lines are written out at once when they would pass this many bytes. */
const LOG_BATCH_BYTES = 64 * 1024;

/** Milliseconds as the three digits ISO 8601 writes after the second's dot. */
const MILLIS = Array.from({ length: 1000 }, (_, ms) => String(ms).padStart(3, "0"));

/**
 * The current time as ISO 8601. `toISOString` (about 1 µs) runs once per second: within a second only the
 * milliseconds change, and they come from a table (a busy proxy logs several lines per millisecond, and a new
 * millisecond nearly every line).
 */
function clock(): () => string {
  let second = -1;
  let prefix = "";
  return () => {
    const now = Date.now();
    const ms = now % 1000;
    if (now - ms !== second) {
      second = now - ms;
      // "2026-11-28T15:13:50." of "2026-11-28T15:13:50.000Z"
      prefix = new Date(second).toISOString().slice(0, -4);
    }
    return `${prefix}${MILLIS[ms]}Z`;
  };
}

const text = JSON.stringify;

/** Characters of HTTP tokens and request ids: nothing JSON escapes. */
const TOKEN = /^[-!#$%&'*+.^_`|~0-9A-Za-z:]*$/;

/** A JSON string for a value that is nearly always a plain token (a method, an id, a route): quoted as it is then. */
function token(value: string): string {
  return TOKEN.test(value) ? `"${value}"` : text(value);
}

/** Counts by name as a JSON object, written as they are (no object made for `JSON.stringify`). */
function counts(map: ReadonlyMap<string, number>): string {
  let out = "{";
  for (const [name, count] of map) out += `${out.length === 1 ? "" : ","}${token(name)}:${count}`;
  return `${out}}`;
}

/** A request's line, field by field in a fixed order; a field without a value is left out (as `JSON.stringify` does). */
function requestLine(time: string, severity: string, entry: RequestLogEntry): string {
  let line = `{"time":"${time}","level":"${severity}","msg":"request","requestId":${token(entry.requestId)},"method":${token(entry.method)},"path":${text(entry.path)},"route":${token(entry.route)},"status":${entry.status},"durationMs":${entry.durationMs}`;
  if (entry.upstreamMs !== undefined) line += `,"upstreamMs":${entry.upstreamMs}`;
  if (entry.stream !== undefined) line += `,"stream":${entry.stream}`;
  if (entry.history !== undefined) line += `,"history":${counts(entry.history)}`;
  if (entry.repairs !== undefined) line += `,"repairs":${counts(entry.repairs)}`;
  if (entry.repairDetails !== undefined) line += `,"repairDetails":${text(entry.repairDetails)}`;
  if (entry.error !== undefined)
    line += `,"error":${text({ code: entry.error.code, message: entry.error.message })}`;
  if (entry.clientClosed === true) line += `,"clientClosed":true`;
  if (entry.upstreamRequestId !== undefined) line += `,"upstreamRequestId":${text(entry.upstreamRequestId)}`;
  return `${line}}\n`;
}

/** Where batched lines go: their UTF-8 bytes, many lines per write (standard output takes them as they are). */
export interface LogByteSink {
  write(chunk: Uint8Array): unknown;
}

/** Writes to a sink, never throwing: a broken log sink must not take requests down with it. */
function writeTo<T>(sink: { write(chunk: T): unknown }, chunk: T): void {
  try {
    sink.write(chunk);
  } catch {
    // Dropped: there is nowhere left to report it.
  }
}

/**
 * A logger that writes one JSON object per line. No logging library: the proxy writes one short line per request,
 * built from fields it chose (never headers or bodies), so a library's redaction, transports and level hierarchy
 * would add a dependency and no safety. Request lines are assembled field by field (no intermediate object), and
 * the time string is made once per millisecond. With `batch`, each line is encoded into a byte buffer as it is made
 * (so its string dies young, and no long string is held across collections), and the buffer is written at most
 * `LOG_BATCH_MS` later, or when it fills (64 KiB): one system call for many requests under load. `flush()` writes
 * what is held; the command line calls it before it exits.
 *
 * @example
 * const logger = createLogger({ sink: process.stdout, level: "info", batch: true });
 * logger.event("info", "listening", { port: 8001 });
 * // {"time":"…","level":"info","msg":"listening","port":8001}
 */
export function createLogger(
  args:
    | { sink: LogSink | null; level: LogLevel; batch?: false }
    | { sink: LogByteSink; level: LogLevel; batch: true },
): ProxyLogger {
  const { level } = args;
  const now = clock();
  const byteSink = args.batch ? args.sink : undefined;
  const textSink = args.batch ? undefined : args.sink;
  let held = byteSink === undefined ? undefined : Buffer.allocUnsafe(LOG_BATCH_BYTES);
  let used = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (byteSink === undefined || held === undefined || used === 0) return;
    // The sink may keep the bytes until they are written (a pipe): the next lines go to a new buffer.
    const chunk = held.subarray(0, used);
    held = Buffer.allocUnsafe(LOG_BATCH_BYTES);
    used = 0;
    writeTo(byteSink, chunk);
  };
  const write = (line: string): void => {
    if (byteSink === undefined || held === undefined) {
      if (textSink) writeTo(textSink, line);
      return;
    }
    // At most 3 bytes per UTF-16 unit (a surrogate pair is 4 bytes for 2 units).
    if (used + line.length * 3 > held.length) flush();
    if (line.length * 3 > held.length) {
      writeTo(byteSink, Buffer.from(line, "utf8"));
      return;
    }
    used += held.write(line, used, "utf8");
    if (timer === undefined) {
      timer = setTimeout(flush, LOG_BATCH_MS);
      // Held lines never keep the process alive; whoever ends it calls flush().
      timer.unref();
    }
  };
  const sink = args.sink;
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
      if (sink === null || level === "silent" || (level === "error" && severity === "info")) return;
      write(requestLine(now(), severity, entry));
    },
    event(eventLevel, message, fields) {
      if (sink === null || level === "silent" || (level === "error" && eventLevel !== "error")) return;
      write(`${text({ time: now(), level: eventLevel, msg: message, ...fields })}\n`);
    },
  };
}
