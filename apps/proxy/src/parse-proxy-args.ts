import { parseArgs } from "node:util";
import type { SanitizePolicy } from "@toolcall/core";
import { CONTENT_CALL_EXTRACTORS } from "./content-call-extractors.js";
import { parseByteSize } from "./parse-byte-size.js";
import { parseDuration } from "./parse-duration.js";
import { DEFAULTS, type LogLevel, type ProxyOptions } from "./proxy-options.js";
import { resolveRepairs } from "./resolve-repairs.js";
import { parseUpstream } from "./upstream-target.js";

/** What the command line decides: the proxy's options and where it listens. */
export interface ProxyCommand {
  options: ProxyOptions;
  host: string;
  port: number;
}

export type ParsedArgs =
  | { ok: true; command: ProxyCommand }
  | { ok: true; help: true }
  | { ok: true; version: true }
  | { ok: false; error: string };

const HISTORY_POLICIES: readonly SanitizePolicy[] = ["preserve", "drop", "empty"];
const MISSING_RESULT = ["synthesize", "drop-call"] as const;
const LOG_LEVELS: readonly LogLevel[] = ["info", "error", "silent"];

/** Each flag and the environment variable that sets it when the flag is absent. */
const FLAGS = {
  upstream: "TOOLCALL_PROXY_UPSTREAM",
  host: "TOOLCALL_PROXY_HOST",
  port: "TOOLCALL_PROXY_PORT",
  repair: "TOOLCALL_PROXY_REPAIR",
  policy: "TOOLCALL_PROXY_POLICY",
  "history-policy": "TOOLCALL_PROXY_HISTORY_POLICY",
  "missing-result": "TOOLCALL_PROXY_MISSING_RESULT",
  "content-calls": "TOOLCALL_PROXY_CONTENT_CALLS",
  "max-body": "TOOLCALL_PROXY_MAX_BODY",
  "connect-timeout": "TOOLCALL_PROXY_CONNECT_TIMEOUT",
  "headers-timeout": "TOOLCALL_PROXY_HEADERS_TIMEOUT",
  "idle-timeout": "TOOLCALL_PROXY_IDLE_TIMEOUT",
  "drain-timeout": "TOOLCALL_PROXY_DRAIN_TIMEOUT",
  "log-level": "TOOLCALL_PROXY_LOG_LEVEL",
  "log-content": "TOOLCALL_PROXY_LOG_CONTENT",
} as const;

/**
 * The `--help` text.
 *
 * @example
 * process.stdout.write(`${USAGE}\n`);
 */
export const USAGE = `toolcall-proxy: an OpenAI-compatible proxy that repairs tool calls in flight

Usage: toolcall-proxy --upstream URL [options]

  --upstream URL          the OpenAI-compatible server to front, e.g. http://127.0.0.1:8000 (required)
  --host HOST             address to listen on (default 127.0.0.1)
  --port PORT             port to listen on (default 8001; 0 picks a free one)
  --repair NAMES          repairs to run, comma-separated or repeated (default core): core, none,
                          markdown-fence, template-suffix, python-literal, control-characters,
                          trailing-commas, repeated-object, gemma-quote-markers, jsonrepair
  --history-policy P      request history calls that cannot be decoded: preserve (default), drop, empty
  --missing-result M      a call without a tool result: synthesize (default), drop-call
  --content-calls NAMES   native tool calls to recover from assistant content: gemma, qwen (default none)
  --max-body SIZE         largest request body (default 10mb); larger gets 413
  --connect-timeout T     to connect to the upstream (default 10s)
  --headers-timeout T     from request to upstream response headers (default 10m; 0 = none)
  --idle-timeout T        upstream silence inside a response body (default 5m; 0 = none)
  --drain-timeout T       on SIGTERM, how long requests in flight may take (default 30s)
  --log-level L           info (default, one JSON line per request), error, silent
  --log-content           also log the arguments before and after each repair (off: logs carry no content)
  --help, --version

Every flag can come from the environment instead: TOOLCALL_PROXY_UPSTREAM, TOOLCALL_PROXY_PORT, … (the flag's
name in capitals, dashes as underscores). Flags win over the environment.`;

type Values = Partial<Record<keyof typeof FLAGS | "help" | "version", string | string[] | boolean>>;

function pick<T extends string>(name: string, value: string, allowed: readonly T[]): T | string {
  return (allowed as readonly string[]).includes(value)
    ? (value as T)
    : `--${name} must be one of ${allowed.join(", ")} (got ${JSON.stringify(value)})`;
}

const list = (value: string | string[] | boolean | undefined): string[] =>
  (Array.isArray(value) ? value : typeof value === "string" ? [value] : [])
    .flatMap((item) => item.split(","))
    .map((item) => item.trim())
    .filter((item) => item !== "");

/**
 * Reads the command line and the environment into the proxy's options; every mistake is a message, not a throw.
 *
 * @example
 * parseProxyArgs({ argv: ["--upstream", "http://127.0.0.1:8000", "--repair", "core,gemma-quote-markers"], env: {} });
 * // { ok: true, command: { host: "127.0.0.1", port: 8001, options: { upstream: "http://127.0.0.1:8000", … } } }
 */
export function parseProxyArgs(args: {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
}): ParsedArgs {
  let values: Values;
  try {
    values = parseArgs({
      args: [...args.argv],
      strict: true,
      allowPositionals: false,
      options: {
        upstream: { type: "string" },
        host: { type: "string" },
        port: { type: "string" },
        repair: { type: "string", multiple: true },
        policy: { type: "string" },
        "history-policy": { type: "string" },
        "missing-result": { type: "string" },
        "content-calls": { type: "string", multiple: true },
        "max-body": { type: "string" },
        "connect-timeout": { type: "string" },
        "headers-timeout": { type: "string" },
        "idle-timeout": { type: "string" },
        "drain-timeout": { type: "string" },
        "log-level": { type: "string" },
        "log-content": { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
      },
    }).values as Values;
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  if (values.help === true) return { ok: true, help: true };
  if (values.version === true) return { ok: true, version: true };

  const get = (flag: keyof typeof FLAGS): string | string[] | boolean | undefined => {
    const value = values[flag];
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) return value;
    const fromEnv = args.env[FLAGS[flag]];
    return fromEnv === undefined || fromEnv === "" ? undefined : fromEnv;
  };
  const text = (flag: keyof typeof FLAGS, fallback: string): string => {
    const value = get(flag);
    return typeof value === "string" ? value : fallback;
  };

  const upstreamText = get("upstream");
  if (typeof upstreamText !== "string")
    return { ok: false, error: "--upstream URL is required (or TOOLCALL_PROXY_UPSTREAM)" };
  const upstream = parseUpstream(upstreamText);
  if (!upstream.ok) return upstream;

  const port = Number(text("port", "8001"));
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return { ok: false, error: `--port must be a port number (got ${JSON.stringify(text("port", ""))})` };

  const repairNames = list(get("repair"));
  const repairs = resolveRepairs(repairNames.length === 0 ? ["core"] : repairNames);
  if (!repairs.ok) return repairs;

  const contentCalls = [];
  for (const name of list(get("content-calls"))) {
    if (name === "none") continue;
    const extractor = CONTENT_CALL_EXTRACTORS[name];
    if (extractor === undefined)
      return {
        ok: false,
        error: `--content-calls: unknown syntax ${JSON.stringify(name)} (known: ${Object.keys(CONTENT_CALL_EXTRACTORS).join(", ")})`,
      };
    contentCalls.push(extractor);
  }

  if (get("policy") !== undefined)
    return {
      ok: false,
      error:
        "--policy was removed: a call in an answer that no tool can run on keeps the model's own text (never a sentinel or {}); --history-policy decides what a request's history sends",
    };
  const historyPolicy = pick("history-policy", text("history-policy", "preserve"), HISTORY_POLICIES);
  const missingResult = pick("missing-result", text("missing-result", "synthesize"), MISSING_RESULT);
  const logLevel = pick("log-level", text("log-level", "info"), LOG_LEVELS);
  for (const [value, allowed] of [
    [historyPolicy, HISTORY_POLICIES],
    [missingResult, MISSING_RESULT],
    [logLevel, LOG_LEVELS],
  ] as const) {
    if (!(allowed as readonly string[]).includes(value)) return { ok: false, error: value };
  }

  const maxBody = parseByteSize(text("max-body", String(DEFAULTS.maxBody)));
  if (!maxBody.ok) return { ok: false, error: `--max-body: ${maxBody.error}` };
  const durations: Record<string, number> = {};
  for (const [flag, fallback] of [
    ["connect-timeout", DEFAULTS.connectTimeout],
    ["headers-timeout", DEFAULTS.headersTimeout],
    ["idle-timeout", DEFAULTS.idleTimeout],
    ["drain-timeout", DEFAULTS.drainTimeout],
  ] as const) {
    const parsed = parseDuration(text(flag, String(fallback)));
    if (!parsed.ok) return { ok: false, error: `--${flag}: ${parsed.error}` };
    durations[flag] = parsed.value;
  }
  const logContent = get("log-content");

  return {
    ok: true,
    command: {
      host: text("host", "127.0.0.1"),
      port,
      options: {
        upstream: upstreamText,
        repairs: repairs.repairs,
        historyPolicy: historyPolicy as SanitizePolicy,
        missingResult: missingResult as "synthesize" | "drop-call",
        contentCalls,
        maxBody: maxBody.value,
        connectTimeout: durations["connect-timeout"] as number,
        headersTimeout: durations["headers-timeout"] as number,
        idleTimeout: durations["idle-timeout"] as number,
        drainTimeout: durations["drain-timeout"] as number,
        logLevel: logLevel as LogLevel,
        logContent: logContent === true || logContent === "1" || logContent === "true",
      },
    },
  };
}
