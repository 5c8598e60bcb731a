import { parseArgs } from "node:util";
import { PROVIDER_IDS, type ProviderId, type SanitizePolicy } from "@toolcall/core";
import { CONTENT_CALL_EXTRACTORS } from "./content-call-extractors.js";
import { parseByteSize } from "./parse-byte-size.js";
import { parseDuration } from "./parse-duration.js";
import { DEFAULTS, type LogLevel, type ProxyOptions } from "./proxy-options.js";
import { resolveRepairs } from "./resolve-repairs.js";
import { parseUpstream } from "./upstream-target.js";

/** What the command line decides: the proxy's options and where it listens. */
export interface ProxyCommand {
  options: ProxyOptions;
  /** `--content-calls auto`: resolved at start-up from `--chat-template FILE`, else from the upstream. */
  contentCallsAuto?: { templateFile: string | undefined };
  host: string;
  port: number;
}

/** What `parseProxyArgs` makes of a command line: a command to run, a request for help or the version, or a usage error. */
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
  provider: "TOOLCALL_PROXY_PROVIDER",
  "chat-template": "TOOLCALL_PROXY_CHAT_TEMPLATE",
  "max-body": "TOOLCALL_PROXY_MAX_BODY",
  "max-response-body": "TOOLCALL_PROXY_MAX_RESPONSE_BODY",
  "body-timeout": "TOOLCALL_PROXY_BODY_TIMEOUT",
  "connect-timeout": "TOOLCALL_PROXY_CONNECT_TIMEOUT",
  "headers-timeout": "TOOLCALL_PROXY_HEADERS_TIMEOUT",
  "idle-timeout": "TOOLCALL_PROXY_IDLE_TIMEOUT",
  "request-timeout": "TOOLCALL_PROXY_REQUEST_TIMEOUT",
  "drain-timeout": "TOOLCALL_PROXY_DRAIN_TIMEOUT",
  "log-level": "TOOLCALL_PROXY_LOG_LEVEL",
  "log-content": "TOOLCALL_PROXY_LOG_CONTENT",
} as const;

/** Words of `text` in lines of at most `width` characters, each indented by `indent` spaces. */
function wrap(text: string, indent: number, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines.map((l) => " ".repeat(indent) + l).join("\n");
}

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
                          markdown-fence, family-markup, template-suffix, literal-escapes,
                          python-literal, unquoted-values, control-characters, trailing-commas,
                          stray-text, repeated-object, gemma-quote-markers, jsonrepair
  --history-policy P      request history calls that cannot be decoded: preserve (default), drop, empty
  --missing-result M      a call without a tool result: synthesize (default), drop-call
  --provider ID           make request histories acceptable to this provider before forwarding:
${wrap(PROVIDER_IDS.join(", "), 26, 112)}
                          (default none: OpenAI's rules)
  --content-calls NAMES   native tool calls to recover from assistant content (default none):
${wrap(`auto, ${Object.keys(CONTENT_CALL_EXTRACTORS).join(", ")}`, 26, 112)}
                          auto: the syntax the chat template writes (--chat-template FILE, else the upstream's
                          GET /props, which llama.cpp serves)
  --chat-template FILE    the model's chat template, for --content-calls auto
  --max-body SIZE         largest request body (default 10mb), compressed or decoded; larger gets 413
  --max-response-body SIZE
                          largest upstream answer held for repair: a whole JSON body, or one stream event
                          (default 64mb); larger: 502, or an error frame in a stream
  --body-timeout T        time for a request body to arrive whole (default 30s; 0 = none); past it: 408
  --connect-timeout T     to connect to the upstream (default 10s)
  --headers-timeout T     from request to upstream response headers (default 2m; 0 = none)
  --idle-timeout T        upstream silence inside a response body (default 5m; 0 = none)
  --request-timeout T     total time a request may take, streams included (default 0 = none);
                          past it: 504 request_deadline, or an error frame in a stream
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
        provider: { type: "string" },
        "chat-template": { type: "string" },
        "max-body": { type: "string" },
        "max-response-body": { type: "string" },
        "body-timeout": { type: "string" },
        "connect-timeout": { type: "string" },
        "headers-timeout": { type: "string" },
        "idle-timeout": { type: "string" },
        "request-timeout": { type: "string" },
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
  let auto = false;
  for (const name of list(get("content-calls"))) {
    if (name === "none") continue;
    if (name === "auto") {
      auto = true;
      continue;
    }
    const extractor = CONTENT_CALL_EXTRACTORS[name];
    if (extractor === undefined)
      return {
        ok: false,
        error: `--content-calls: unknown syntax ${JSON.stringify(name)} (known: auto, ${Object.keys(CONTENT_CALL_EXTRACTORS).join(", ")})`,
      };
    contentCalls.push(extractor);
  }

  const chatTemplate = get("chat-template");
  if (typeof chatTemplate === "string" && !auto)
    return {
      ok: false,
      error: "--chat-template is read by --content-calls auto; add it (or drop --chat-template)",
    };

  if (get("policy") !== undefined)
    return {
      ok: false,
      error:
        "--policy was removed: a call in an answer that no tool can run on keeps the model's own text (never a sentinel or {}); --history-policy decides what a request's history sends",
    };
  const providerText = get("provider");
  let provider: ProviderId | undefined;
  if (typeof providerText === "string" && providerText !== "none") {
    const known = pick("provider", providerText, PROVIDER_IDS);
    if (!(PROVIDER_IDS as readonly string[]).includes(known)) return { ok: false, error: known };
    provider = known as ProviderId;
  }
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
  const maxResponseBody = parseByteSize(text("max-response-body", String(DEFAULTS.maxResponseBody)));
  if (!maxResponseBody.ok) return { ok: false, error: `--max-response-body: ${maxResponseBody.error}` };
  const durations: Record<string, number> = {};
  for (const [flag, fallback] of [
    ["connect-timeout", DEFAULTS.connectTimeout],
    ["headers-timeout", DEFAULTS.headersTimeout],
    ["idle-timeout", DEFAULTS.idleTimeout],
    ["request-timeout", DEFAULTS.requestTimeout],
    ["body-timeout", DEFAULTS.bodyTimeout],
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
      ...(auto
        ? { contentCallsAuto: { templateFile: typeof chatTemplate === "string" ? chatTemplate : undefined } }
        : {}),
      host: text("host", "127.0.0.1"),
      port,
      options: {
        upstream: upstreamText,
        repairs: repairs.repairs,
        historyPolicy: historyPolicy as SanitizePolicy,
        missingResult: missingResult as "synthesize" | "drop-call",
        ...(provider === undefined ? {} : { provider }),
        contentCalls,
        maxBody: maxBody.value,
        maxResponseBody: maxResponseBody.value,
        connectTimeout: durations["connect-timeout"] as number,
        headersTimeout: durations["headers-timeout"] as number,
        idleTimeout: durations["idle-timeout"] as number,
        requestTimeout: durations["request-timeout"] as number,
        bodyTimeout: durations["body-timeout"] as number,
        drainTimeout: durations["drain-timeout"] as number,
        logLevel: logLevel as LogLevel,
        logContent: logContent === true || logContent === "1" || logContent === "true",
      },
    },
  };
}
