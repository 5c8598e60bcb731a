import type { ToolcallOptions } from "@toolcall/core";
import { contentCallSyntaxes } from "@toolcall/model-formats";
import type { ChatCompletion } from "openai/resources/chat/completions";
import type { ContentCallExtractor, ExtractionContext } from "./exchange/content-call-extractor.js";
import { exchangeApi } from "./exchange/exchange-api.js";
import {
  ContentCallStream,
  type ExtractionReport,
  extractCompletionContentCallsSteps,
} from "./exchange/extract-content-calls.js";
import { repairRequestBody } from "./exchange/repair-request-body.js";
import { repairResponseBody } from "./exchange/repair-response-body.js";
import { repairSseStream } from "./exchange/repair-sse-stream.js";
import { REPAIRS_HEADER, RepairSummary } from "./exchange/repair-summary.js";
import { syntaxContentCalls } from "./exchange/syntax-content-calls.js";
import type { OpenAIApi, OpenAIRepairOptions } from "./options.js";

/**
 * `guardFetch`'s options: core's `ToolcallOptions` (the same names and meanings at every door: `repairs`,
 * `provider`, `sanitize`, `contentCalls`, `chatTemplate`, `splitMergedCalls`, `onReport`), and this package's own
 * (`maxDepth`, `tools`, `onRepair`, `onContentCall`).
 *
 * @example
 * import { qwen3Coder } from "@toolcall/model-formats";
 * const options: GuardFetchOptions = { repairs: coreRepairs, contentCalls: [qwen3Coder] };
 */
export interface GuardFetchOptions extends OpenAIRepairOptions, ToolcallOptions {
  /** Requests: sanitize the history (R4): `true` (the default) or R4's options, or `false` to send it as it is. */
  sanitize?: OpenAIRepairOptions["sanitize"];
  /**
   * Native tool-call syntaxes a server may leave in a Chat Completions answer's `content` (any core `ToolCallSyntax`:
   * `@toolcall/model-formats`' registry, `@toolcall/gemma-recovery`'s `gemma4`), or `"auto"` with `chatTemplate`
   * (the syntax the template renders; an error at construction when detection is not sure). Each call found becomes
   * a tool call, decided like any other and listed in the report as `content-call` with its syntax id; text that
   * does not parse stays.
   */
  contentCalls?: ToolcallOptions["contentCalls"];
  /** Every call recovered from content and every issue of the syntaxes, as the proxy's log and metrics take them. */
  onContentCall?: (report: ExtractionReport) => void;
}

/** What a `fetch` takes as its first argument. */
export type FetchInput = string | URL | Request;

/** A standard `fetch`. */
export type Fetch = (input: FetchInput, init?: RequestInit) => Promise<Response>;

type ResponseBody = ConstructorParameters<typeof Response>[0];

const encoder = new TextEncoder();

function urlOf(input: FetchInput): string {
  if (typeof input === "string") return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

/** The bytes of a request body the guard can read without changing how it is sent; `undefined` otherwise. */
async function bodyBytes(input: FetchInput, init: RequestInit | undefined): Promise<Uint8Array | undefined> {
  const body = init?.body;
  if (body === undefined || body === null) {
    if (
      typeof input === "object" &&
      !(input instanceof URL) &&
      init?.body === undefined &&
      input.body !== null
    )
      return new Uint8Array(await input.clone().arrayBuffer());
    return undefined;
  }
  if (typeof body === "string") return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (typeof Blob !== "undefined" && body instanceof Blob) return new Uint8Array(await body.arrayBuffer());
  // A stream, form data or search parameters: not a JSON request the guard can read; it goes as it came.
  return undefined;
}

/** The request with a new body (its length header, if it set one, dropped: the runtime computes it). */
function withBody(
  input: FetchInput,
  init: RequestInit | undefined,
  body: Uint8Array,
): [FetchInput, RequestInit] {
  const headers = new Headers(
    init?.headers ?? (typeof input === "object" && "headers" in input ? input.headers : undefined),
  );
  headers.delete("content-length");
  return [input, { ...init, headers, body }];
}

/** The answer's headers for a body the guard read: its length and encoding no longer describe the new body. */
function answerHeaders(response: Response, summary: string | undefined): Headers {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  if (summary !== undefined) headers.set(REPAIRS_HEADER, summary);
  return headers;
}

function rebuilt(response: Response, body: ResponseBody, headers: Headers): Response {
  const answer = new Response(body, { status: response.status, statusText: response.statusText, headers });
  // A built response has no URL; clients that read it (redirect handling, logs) get the original's.
  if (response.url !== "") Object.defineProperty(answer, "url", { value: response.url });
  return answer;
}

async function guardedExchange(args: {
  fetch: Fetch;
  api: OpenAIApi;
  input: FetchInput;
  init: RequestInit | undefined;
  options: GuardFetchOptions;
  extractors: readonly ContentCallExtractor[];
}): Promise<Response> {
  const summary = new RepairSummary(args.options);
  let { input, init } = args;
  let context: ExtractionContext = { tools: [] };
  const body = await bodyBytes(input, init);
  if (body !== undefined) {
    const request = repairRequestBody({ api: args.api, body, options: summary.options });
    if (request.changed) [input, init] = withBody(input, init, request.body);
    context = { tools: request.tools };
    // The request's tools type the answer's calls by their schemas, unless the caller named the tools.
    if (summary.options.tools === undefined && request.tools.length > 0) summary.useTools(request.tools);
  }
  const extractors = args.api === "chat.completions" ? args.extractors : [];
  const onReport = (report: ExtractionReport): void => {
    if (report.kind === "tool_call")
      summary.addContentCall({
        index: report.index,
        id: report.toolCall.id,
        name: report.toolCall.function.name,
        syntax: report.syntax,
      });
    args.options.onContentCall?.(report);
  };
  const response = await args.fetch(input, init);
  // Error answers, and answers without a body, reach the client as they came (what the history needed is told).
  if (!response.ok || response.body === null) {
    summary.done();
    return response;
  }
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("text/event-stream")) {
    const prepare =
      extractors.length === 0 ? undefined : new ContentCallStream({ extractors, context, onReport });
    const stream = repairSseStream(response.body, {
      api: args.api,
      summary,
      ...(prepare === undefined ? {} : { prepare }),
    });
    return rebuilt(response, stream, answerHeaders(response, summary.text()));
  }
  if (type !== "" && !type.includes("json")) {
    summary.done();
    return response;
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  const prepare =
    extractors.length === 0
      ? undefined
      : (answer: Record<string, unknown>) =>
          extractCompletionContentCallsSteps({
            completion: answer as unknown as ChatCompletion,
            extractors,
            context,
            onReport,
          }) as unknown as Generator<number, Record<string, unknown>, void>;
  const repaired = repairResponseBody({
    api: args.api,
    body: bytes,
    options: summary.options,
    ...(prepare === undefined ? {} : { prepare }),
  });
  summary.done();
  // A body that is not JSON goes on as it came: the client reports it as it would have.
  const sent = repaired.ok ? repaired.body : bytes;
  return rebuilt(response, sent as ResponseBody, answerHeaders(response, summary.text()));
}

/**
 * A standard `fetch` that guards every OpenAI-style exchange it carries: the history in a Chat Completions or
 * Responses API request is sanitized on the way out (R4), and the answer coming back is repaired, whole JSON or an
 * SSE stream (R1, R6, R7, R9), with core's rules: byte for byte the same where nothing needs changing, every number as
 * written where something does. A call no tool can run on (cut by a length stop, not JSON) keeps the model's own
 * text. Other requests (models, embeddings, files) and error answers pass through untouched. What was repaired is on
 * the answer: an `x-toolcall-repairs` header with a JSON summary (for a stream, what the request's history needed; the
 * answer's repairs follow in a `: x-toolcall-repairs {…}` comment before `data: [DONE]`, which SSE clients skip) and
 * every report goes to `onRepair`. Give it to any client that takes a `fetch`: the `openai` SDK (`new OpenAI({ fetch
 * })`), `@ai-sdk/openai-compatible` and `@ai-sdk/openai` (`fetch`), LangChain's `ChatOpenAI` (`configuration: { fetch
 * }`), LlamaIndex's `OpenAI` (`additionalSessionOptions: { fetch }`). Web APIs only: it runs in Node, browsers and
 * edge runtimes.
 *
 * @example
 * import OpenAI from "openai";
 * import { coreRepairs } from "@toolcall/core";
 * import { guardFetch } from "@toolcall/openai";
 *
 * const client = new OpenAI({ fetch: guardFetch(fetch, { repairs: coreRepairs }) });
 *
 * // Qwen3-Coder calls a server left in `content` become tool calls, reported as `content-call`:
 * import { qwen3Coder } from "@toolcall/model-formats";
 * const recovering = new OpenAI({ fetch: guardFetch(fetch, { repairs: coreRepairs, contentCalls: [qwen3Coder] }) });
 */
export function guardFetch(fetch?: Fetch, options: GuardFetchOptions = {}): Fetch {
  const syntaxes = contentCallSyntaxes(options);
  if (!syntaxes.success) throw new TypeError(`${syntaxes.error.message} (${syntaxes.error.code})`);
  const extractors = syntaxes.value.map((syntax) => syntaxContentCalls({ syntax }));
  return (input, init) => {
    const inner: Fetch = fetch ?? globalThis.fetch;
    const method =
      init?.method ?? (typeof input === "object" && "method" in input ? input.method : undefined);
    const api = exchangeApi({ method, url: urlOf(input) });
    if (api === undefined) return inner(input, init);
    return guardedExchange({ fetch: inner, api, input, init, options, extractors });
  };
}
