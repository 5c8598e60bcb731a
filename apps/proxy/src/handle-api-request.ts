import type { IncomingMessage, ServerResponse } from "node:http";
import type {
  ContentCallExtractor,
  ExtractionContext,
  OpenAIRepairOptions,
  RepairReport,
} from "@toolcall/openai";
import {
  type ExtractionReport,
  REPAIRS_HEADER,
  RepairSummary,
  repairRequestBody,
} from "@toolcall/openai/exchange";
import { requestHeadersForUpstream } from "./forward-headers.js";
import type { ProxyError } from "./proxy-error.js";
import {
  countRepair,
  type ProxyRuntime,
  type RequestState,
  sendError,
  upstreamHeadersArrived,
} from "./proxy-runtime.js";
import { type JsonRepairResult, type RepairedApi, repairJsonResponseSteps } from "./repair-json-response.js";
import { repairSseResponse, type SseRepairSession } from "./repair-sse-response.js";
import type { UpstreamCall, UpstreamHandler } from "./upstream-client.js";
import { upstreamErrorBody } from "./upstream-error-body.js";

/** Error bodies are small; a larger one is cut (only its start is shown). */
const MAX_ERROR_BODY = 64 * 1024;
const NO_TOOLS: ExtractionContext = Object.freeze({ tools: Object.freeze([]) });
const NO_EXTRACTORS: readonly ContentCallExtractor[] = [];

/** A flat `[name, value, …]` header list without one header. */
function withoutHeader(headers: readonly string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < headers.length; i += 2)
    if ((headers[i] as string).toLowerCase() !== name)
      out.push(headers[i] as string, headers[i + 1] as string);
  return out;
}

type Mode = "json" | "sse" | "error" | "pass";

/**
 * One repaired API request, from its body going up to the answer coming down. It is undici's handler for the
 * upstream's answer and the repair options handed to `@toolcall/openai` (whose reports it counts for the log line
 * and the metrics) at once: one object per request instead of a closure per callback.
 */
class ApiExchange implements UpstreamHandler, OpenAIRepairOptions {
  readonly repairs: OpenAIRepairOptions["repairs"];
  readonly sanitize: OpenAIRepairOptions["sanitize"];
  readonly provider: OpenAIRepairOptions["provider"];
  readonly #runtime: ProxyRuntime;
  readonly #state: RequestState;
  readonly #response: ServerResponse;
  readonly #api: RepairedApi;
  #context: ExtractionContext = NO_TOOLS;
  #call: UpstreamCall | undefined;
  #mode: Mode = "json";
  #status = 0;
  #headers: string[] = [];
  #chunks: Buffer[] = [];
  #size = 0;
  #overflow = false;
  #session: SseRepairSession | undefined;
  /** What this exchange repaired, for the `x-toolcall-repairs` header and the end-of-stream comment. */
  #summary: RepairSummary | undefined;

  constructor(runtime: ProxyRuntime, state: RequestState, response: ServerResponse, api: RepairedApi) {
    const { options } = runtime;
    this.repairs = options.repairs;
    this.sanitize = options.sanitize;
    this.provider = options.provider;
    this.#runtime = runtime;
    this.#state = state;
    this.#response = response;
    this.#api = api;
  }

  /** Reports from `@toolcall/openai`: each applied rule counted, and kept whole when content is logged. */
  readonly onRepair = (report: RepairReport): void => {
    const runtime = this.#runtime;
    const state = this.#state;
    const api = this.#api;
    if (report.kind === "history") {
      countRepair({ runtime, state, api, source: "request", rule: report.change.rule });
      if (runtime.options.logContent) state.repairDetails?.push({ source: "request", ...report.change });
      return;
    }
    if (report.repairs.length === 0)
      countRepair({ runtime, state, api, source: report.source, rule: report.status });
    for (const rule of report.repairs) countRepair({ runtime, state, api, source: report.source, rule });
    if (runtime.options.logContent)
      state.repairDetails?.push({
        source: report.source,
        toolCallId: report.toolCallId,
        status: report.status,
        repairs: report.repairs,
        before: report.before,
        after: report.after,
      });
  };

  /** Sanitizes the body (a history core cannot read is sent as it came) and sends it upstream. */
  start(request: IncomingMessage, body: Buffer | null): void {
    const runtime = this.#runtime;
    const state = this.#state;
    let sent: Uint8Array | null = body;
    if (body !== null && body.length > 0) {
      const started = process.hrtime.bigint();
      try {
        const sanitized = repairRequestBody({ api: this.#api, body, options: this.#summaryOf().options });
        sent = sanitized.body;
        state.stream = sanitized.stream;
        if (sanitized.tools.length > 0) {
          this.#context = { tools: sanitized.tools };
          // Calls in the answer are typed by their tool's schema (lossless conversions only), unless repairs are off.
          if (this.repairs !== undefined && this.repairs.length > 0)
            this.#summaryOf().options.tools = sanitized.tools;
        }
      } catch (error) {
        // The upstream answers it as it would have.
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
    state.upstreamSent ??= process.hrtime.bigint();
    this.#call = runtime.upstream.send(
      {
        method: "POST",
        path: request.url as string,
        // The body goes up decoded (a compressed one was decoded to be sanitized): its encoding header goes too.
        headers: withoutHeader(
          requestHeadersForUpstream({
            rawHeaders: request.rawHeaders,
            identity: true,
            connection: request.headers.connection,
          }),
          "content-encoding",
        ),
        body: sent,
      },
      this,
    );
    state.call = this.#call;
  }

  onHeaders(status: number, rawHeaders: Buffer[]): void {
    const runtime = this.#runtime;
    const state = this.#state;
    const response = this.#response;
    this.#status = status;
    const forwarded = upstreamHeadersArrived({ runtime, state, rawHeaders });
    const encoding = forwarded.contentEncoding;
    let mode: Mode;
    if (encoding !== undefined && encoding !== "identity") mode = "pass";
    else if (status < 200 || status >= 300) mode = "error";
    else if ((forwarded.contentType ?? "").startsWith("text/event-stream")) mode = "sse";
    else mode = "json";
    this.#mode = mode;
    let headers = forwarded.headers;
    // The length stays only on a body passed on as it is; a stream's encoding header (identity) goes too.
    if (mode === "pass" && forwarded.contentLength !== undefined)
      headers.push("content-length", forwarded.contentLength);
    if (mode === "sse" && encoding !== undefined) headers = withoutHeader(headers, "content-encoding");
    this.#headers = headers;
    if (mode === "pass") {
      response.on("drain", () => this.#call?.resume());
      response.writeHead(status, headers);
      return;
    }
    if (mode === "sse") {
      state.stream = true;
      // What the request's history needed is known now; the answer's repairs follow in the stream's last comment.
      const requestSummary = this.#summary?.text();
      if (requestSummary !== undefined) headers.push(REPAIRS_HEADER, requestSummary);
      response.writeHead(status, headers);
      // Sent with the first piece when it came in this read (one write, not two), else right after it.
      queueMicrotask(() => response.headersSent || response.destroyed || response.flushHeaders());
      const session = repairSseResponse({
        api: this.#api,
        response,
        summary: this.#summaryOf(),
        extractors: this.#extractors(),
        context: this.#context,
        onExtract: this.#onExtract("stream"),
        maxEventBytes: runtime.options.maxResponseBody,
        upstream: () => this.#call,
        onDone: (outcome) => {
          if (outcome.error !== undefined) {
            state.error = outcome.error;
            runtime.metrics.upstreamErrors.inc({ route: state.route, code: outcome.error.code });
          }
        },
      });
      this.#session = session;
      state.cut = (error) => session.cut(error);
      response.on("close", () => {
        if (!response.writableFinished) session.onClientClose();
      });
    }
  }

  onData(chunk: Buffer): boolean {
    switch (this.#mode) {
      case "pass":
        return this.#response.write(chunk);
      case "sse":
        return (this.#session as SseRepairSession).onData(chunk);
      default:
        return this.#gather(chunk);
    }
  }

  onEnd(): void {
    const mode = this.#mode;
    if (mode === "pass") {
      this.#response.end();
      return;
    }
    if (mode === "sse") {
      (this.#session as SseRepairSession).onEnd();
      return;
    }
    if (this.#overflow && mode === "json") return;
    const chunks = this.#chunks;
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    this.#chunks = [];
    if (mode === "error") this.#answerUpstreamError(body);
    else this.#answerRepaired(body);
  }

  onError(error: ProxyError): void {
    if (this.#mode === "sse" && this.#session !== undefined) {
      this.#session.onError(error);
      return;
    }
    sendError({ runtime: this.#runtime, state: this.#state, response: this.#response, error });
  }

  /** A piece of a body read whole (a JSON answer or an error), up to its limit. */
  #gather(chunk: Buffer): boolean {
    if (this.#overflow) return true;
    this.#size += chunk.length;
    const json = this.#mode === "json";
    const limit = json ? this.#runtime.options.maxResponseBody : MAX_ERROR_BODY;
    if (this.#size > limit) {
      this.#overflow = true;
      if (json) {
        this.#call?.abort();
        sendError({
          runtime: this.#runtime,
          state: this.#state,
          response: this.#response,
          error: {
            code: "upstream_response_too_large",
            status: 502,
            message: `the upstream's response is larger than ${limit} bytes`,
          },
        });
      }
      return true;
    }
    this.#chunks.push(chunk);
    return true;
  }

  #answerUpstreamError(body: Buffer): void {
    const status = this.#status;
    const state = this.#state;
    if (status >= 500)
      this.#runtime.metrics.upstreamErrors.inc({ route: state.route, code: "upstream_status" });
    state.error = { code: "upstream_status", status, message: `the upstream answered HTTP ${status}` };
    const errorBytes = upstreamErrorBody(status, body);
    const headers = errorBytes === body ? this.#headers : withoutHeader(this.#headers, "content-type");
    if (errorBytes !== body) headers.push("content-type", "application/json");
    headers.push("content-length", String(errorBytes.length));
    this.#response.writeHead(status, headers);
    this.#response.end(errorBytes);
  }

  /**
   * Repairs a whole answer one step per turn of the event loop (`repairJsonResponseSteps`: about 64 Ki characters of
   * work a step), so other requests (`/healthz`, other streams) are answered while a large one is repaired. Stops
   * when the answer was ended meanwhile (the client left, a drain or deadline cut it).
   */
  #answerRepaired(body: Buffer): void {
    const steps = repairJsonResponseSteps({
      api: this.#api,
      body,
      options: this.#summaryOf().options,
      extractors: this.#extractors(),
      context: this.#context,
      onExtract: this.#onExtract("response"),
    });
    // An answer of one step's work (nearly all) is repaired here and now: no closure, no second turn.
    const response = this.#response;
    if (response.writableEnded || response.destroyed) return;
    const started = process.hrtime.bigint();
    const first = steps.next();
    const spent = process.hrtime.bigint() - started;
    if (first.done === true) this.#sendRepaired(first.value, Number(spent) / 1e9);
    else this.#nextStep(steps, spent);
  }

  /** The next step of a large answer's repair, one per turn of the event loop. */
  #nextStep(steps: Generator<void, JsonRepairResult, void>, spentBefore: bigint): void {
    let spent = spentBefore;
    const step = (): void => {
      const response = this.#response;
      if (response.writableEnded || response.destroyed) return;
      const started = process.hrtime.bigint();
      const next = steps.next();
      spent += process.hrtime.bigint() - started;
      if (next.done === true) this.#sendRepaired(next.value, Number(spent) / 1e9);
      else setImmediate(step);
    };
    setImmediate(step);
  }

  #sendRepaired(repaired: JsonRepairResult, seconds: number): void {
    const runtime = this.#runtime;
    const state = this.#state;
    runtime.metrics.processing.observe({ route: state.route, stage: "repair" }, seconds);
    if (!repaired.ok) {
      sendError({
        runtime,
        state,
        response: this.#response,
        error: { code: "upstream_invalid_response", status: 502, message: repaired.message },
      });
      return;
    }
    const summary = this.#summary?.text();
    if (summary !== undefined) this.#headers.push(REPAIRS_HEADER, summary);
    this.#headers.push("content-length", String(repaired.body.length));
    this.#response.writeHead(this.#status, this.#headers);
    this.#response.end(repaired.body);
  }

  /** The exchange's summary, made when first needed; its options report to this exchange's `onRepair` too. */
  #summaryOf(): RepairSummary {
    this.#summary ??= new RepairSummary(this);
    return this.#summary;
  }

  /** The extractors for native calls left in content: Chat Completions only. */
  #extractors(): readonly ContentCallExtractor[] {
    return this.#api === "chat.completions" ? this.#runtime.options.contentCalls : NO_EXTRACTORS;
  }

  /** Counts what the extractors did (none are called when none are enabled). */
  #onExtract(source: string): ((report: ExtractionReport) => void) | undefined {
    if (this.#extractors().length === 0) return undefined;
    return (report) => {
      // A recovered call is on the answer like any other repair: header, end-of-stream comment, report.
      if (report.kind === "tool_call")
        this.#summaryOf().addContentCall({
          index: report.index,
          id: report.toolCall.id,
          name: report.toolCall.function.name,
          syntax: report.syntax,
        });
      const rule =
        report.kind === "tool_call"
          ? `content-calls:${report.extractor}`
          : `${report.extractor}:${report.issue.code}`;
      countRepair({ runtime: this.#runtime, state: this.#state, api: "chat.completions", source, rule });
    };
  }
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
  if (args.runtime.options.logContent) args.state.repairDetails = [];
  new ApiExchange(args.runtime, args.state, args.response, args.api).start(args.request, args.body);
}
