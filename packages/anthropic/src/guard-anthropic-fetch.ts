import type { ToolcallOptions } from "@toolcall/core";
import type { ToolCallSyntax, ToolcallCallReport, ToolcallReport } from "@toolcall/core/kit";
import { contentCallSyntaxes } from "@toolcall/model-formats";
import { type RecoveredToolUse, recoverMessageContentCalls } from "./message-content-calls.js";
import { sanitizeMessagesRequest } from "./messages-request-door.js";
import {
  type ContentCallReport,
  type MessagesRepairOptions,
  MessagesStreamRepair,
  type ToolUseReport,
} from "./messages-stream-repair.js";
import { SseEvents } from "./sse-events.js";

/** The `fetch` a guard sends with. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The header that says what a guarded exchange repaired (core's `ToolcallReport`, as every door of this project). */
const REPAIRS_HEADER = "x-toolcall-repairs";

/**
 * What the guard takes: core's `ToolcallOptions` (the same names and meanings at every door: `repairs`, `provider`
 * (default `"anthropic"`), `sanitize`, `contentCalls`, `chatTemplate`, `onReport`), and this package's own (`fetch`,
 * `maxDepth`, `onRepair`). `contentCalls` reads the calls a server left in `text` blocks, whole answers and streamed
 * ones alike (each becomes a `tool_use` block where it was); `splitMergedCalls` makes a streamed `tool_use` block
 * whose input holds several merged objects one block per object.
 */
export interface GuardAnthropicOptions
  extends Omit<MessagesRepairOptions, "syntaxes" | "tools">,
    ToolcallOptions {
  /** The `fetch` to send with (default: the global one). */
  fetch?: Fetch;
}

function callReport(report: ToolUseReport | ContentCallReport): ToolcallCallReport {
  if (report.kind === "content_call") return recoveredReport(report);
  const issue = report.usable ? undefined : report.issues.find((found) => found.severity === "error")?.code;
  return {
    ...(report.toolUseId === undefined ? {} : { id: report.toolUseId }),
    ...(report.name === "" ? {} : { name: report.name }),
    status: report.status,
    repairs: report.repairs,
    usable: report.usable,
    ...(issue === undefined ? {} : { issue }),
    ...(report.fit === "exact" ? {} : { fit: report.fit }),
    ...(report.split === undefined ? {} : { split: report.split }),
  };
}

/** A call read from text, as every door reports one: `recovered`, repair `content-call`, and its syntax. */
function recoveredReport(call: RecoveredToolUse): ToolcallCallReport {
  return {
    id: call.toolUseId,
    name: call.name,
    status: "recovered",
    repairs: ["content-call"],
    usable: true,
    syntax: call.syntax,
  };
}

function reportOf(args: {
  history: Record<string, number>;
  calls: readonly (ToolUseReport | ContentCallReport)[];
  recovered?: readonly RecoveredToolUse[];
}): ToolcallReport | undefined {
  const history = Object.keys(args.history).length === 0 ? {} : { history: args.history };
  const all = [...(args.recovered ?? []).map(recoveredReport), ...args.calls.map(callReport)];
  const calls = all.length === 0 ? {} : { calls: all };
  return Object.keys(history).length === 0 && Object.keys(calls).length === 0
    ? undefined
    : { ...history, ...calls };
}

/** The request with its history sanitized when its body is JSON text; what sanitizing changed, counted by rule. */
function sanitizedRequest(
  input: string | URL | Request,
  init: RequestInit | undefined,
  options: GuardAnthropicOptions,
): { init: RequestInit | undefined; history: Record<string, number> } {
  const history: Record<string, number> = {};
  if (options.sanitize === false || typeof init?.body !== "string") return { init, history };
  let body: unknown;
  try {
    body = JSON.parse(init.body);
  } catch {
    return { init, history };
  }
  const sanitize = typeof options.sanitize === "object" ? options.sanitize : {};
  const repaired = sanitizeMessagesRequest({
    body,
    options: {
      ...sanitize,
      ...(options.repairs === undefined ? {} : { repairs: options.repairs }),
      ...(typeof options.provider === "string" ? { provider: options.provider } : {}),
    },
  });
  if (repaired.value === undefined) return { init, history };
  for (const change of repaired.changes) history[change.rule] = (history[change.rule] ?? 0) + 1;
  const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
  headers.delete("content-length");
  return { init: { ...init, headers, body: JSON.stringify(repaired.value) }, history };
}

function isMessagesRequest(input: string | URL | Request, init: RequestInit | undefined): boolean {
  const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  if (method !== "POST") return false;
  const url = input instanceof Request ? input.url : String(input);
  try {
    return new URL(url).pathname.replace(/\/+$/, "").endsWith("/v1/messages");
  } catch {
    return false;
  }
}

/**
 * The request's `tools` (`{ name, input_schema }`) in the function shape syntaxes type values by (`{ type:
 * "function", function: { name, parameters } }`), when its body is JSON text that has them.
 */
function toolsOf(init: RequestInit | undefined): readonly unknown[] | null {
  if (typeof init?.body !== "string") return null;
  let tools: unknown;
  try {
    tools = (JSON.parse(init.body) as { tools?: unknown } | null)?.tools;
  } catch {
    return null;
  }
  if (!Array.isArray(tools)) return null;
  return tools.map((tool: unknown) => {
    const { name, input_schema: parameters } = (tool ?? {}) as { name?: unknown; input_schema?: unknown };
    return { type: "function", function: { name, parameters } };
  });
}

/**
 * A whole JSON answer with the calls its text blocks carry read as `tool_use` blocks (`recoverMessageContentCalls`);
 * `body` is the new JSON text, `undefined` when the answer goes on as it came (nothing read, not JSON, an error).
 */
async function wholeAnswer(args: {
  response: Response;
  syntaxes: readonly ToolCallSyntax[];
  init: RequestInit | undefined;
}): Promise<{ body: string | undefined; recovered: RecoveredToolUse[] }> {
  const { response } = args;
  const json = (response.headers.get("content-type") ?? "").includes("json");
  if (args.syntaxes.length === 0 || !response.ok || !json || response.body === null)
    return { body: undefined, recovered: [] };
  const text = await response.clone().text();
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { body: undefined, recovered: [] };
  }
  const read = recoverMessageContentCalls({ message, syntaxes: args.syntaxes, tools: toolsOf(args.init) });
  // A thought a syntax marked changes the message too (a thinking block), as it does on a stream.
  if (read.message === message) return { body: undefined, recovered: [] };
  return { body: JSON.stringify(read.message), recovered: read.calls };
}

/**
 * The repaired SSE body of a streamed Messages API answer: its events through `MessagesStreamRepair`, read from
 * `body` as the reader asks; cancelling it cancels the source.
 *
 * @example
 * const repaired = repairMessagesStream(response.body, { repairs: coreRepairs });
 */
export function repairMessagesStream(
  body: ReadableStream<Uint8Array>,
  options: MessagesRepairOptions & { onEnd?: () => void } = {},
): ReadableStream<Uint8Array> {
  const repair = new MessagesStreamRepair(options);
  const events = new SseEvents();
  const encoder = new TextEncoder();
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read();
        const texts: string[] = [];
        if (done) {
          for (const event of events.end()) for (const text of repair.push(event)) texts.push(text);
          for (const text of repair.end()) texts.push(text);
        } else
          for (const event of events.push(value)) for (const text of repair.push(event)) texts.push(text);
        if (texts.length > 0) controller.enqueue(encoder.encode(texts.join("")));
        if (done) {
          controller.close();
          options.onEnd?.();
          return;
        }
        if (texts.length > 0) return;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/**
 * A `fetch` for the Anthropic Messages API (`new Anthropic({ fetch })`, or any client that posts to `/v1/messages`):
 * the request's history is sanitized (R4 with the `anthropic` profile, or `provider`'s; `sanitize: false` sends it
 * as it is), a streamed answer (`text/event-stream`) has its `tool_use` blocks repaired and decided by core's rules
 * as they stream (see `MessagesStreamRepair`); with `contentCalls`, calls left in `text` blocks become `tool_use`
 * blocks, whole answers and streams alike, and with `splitMergedCalls` merged streamed input becomes one block per
 * call. Every other request and answer, error bodies included, goes through as it came. What was done is core's
 * `ToolcallReport`: the `x-toolcall-repairs` header says what the history needed (and, on a whole answer, the calls
 * read from text), `onReport` is told the whole report once the answer ended.
 *
 * @example
 * import Anthropic from "@anthropic-ai/sdk";
 * import { coreRepairs } from "@toolcall/core";
 * import { guardAnthropicFetch } from "@toolcall/anthropic";
 *
 * const client = new Anthropic({ fetch: guardAnthropicFetch({ repairs: coreRepairs }) });
 */
export function guardAnthropicFetch(options: GuardAnthropicOptions = {}): Fetch {
  const found = contentCallSyntaxes(options);
  if (!found.success) throw new TypeError(`guardAnthropic: ${found.error.message} (${found.error.code})`);
  const syntaxes = found.value;
  const { fetch: send = globalThis.fetch, onReport, ...repairOptions } = options;
  return async (input, init) => {
    if (!isMessagesRequest(input, init)) return send(input, init);
    const request = sanitizedRequest(input, init, options);
    const response = await send(input, request.init);
    const headers = new Headers(response.headers);
    const streamed =
      response.ok &&
      response.body !== null &&
      (response.headers.get("content-type") ?? "").includes("text/event-stream");
    if (!streamed) {
      const whole = await wholeAnswer({ response, syntaxes, init: request.init });
      const sent = reportOf({ history: request.history, calls: [], recovered: whole.recovered });
      if (sent !== undefined) onReport?.(sent);
      if (sent === undefined && whole.body === undefined) return response;
      if (sent !== undefined) headers.set(REPAIRS_HEADER, JSON.stringify(sent));
      if (whole.body !== undefined) headers.delete("content-length");
      return new Response(whole.body ?? response.body, {
        status: response.status,
        statusText: response.statusText,
        headers,
      });
    }
    const sent = reportOf({ history: request.history, calls: [] });
    if (sent !== undefined) headers.set(REPAIRS_HEADER, JSON.stringify(sent));
    const reports: (ToolUseReport | ContentCallReport)[] = [];
    const body = repairMessagesStream(response.body as ReadableStream<Uint8Array>, {
      ...repairOptions,
      syntaxes,
      tools: toolsOf(request.init),
      onRepair: (report) => {
        reports.push(report);
        repairOptions.onRepair?.(report);
      },
      onEnd: () => {
        const report = reportOf({ history: request.history, calls: reports });
        if (report !== undefined) onReport?.(report);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}

/**
 * Guards an Anthropic client in one call: a client like it (the SDK's own `withOptions`) whose transport is
 * {@link guardAnthropicFetch}. `messages.create({ stream: true })` and `messages.stream()` get `tool_use` input
 * repaired and decided by core's rules; the client passed in is not changed.
 *
 * @example
 * import Anthropic from "@anthropic-ai/sdk";
 * import { coreRepairs } from "@toolcall/core";
 * import { guardAnthropic } from "@toolcall/anthropic";
 *
 * const client = guardAnthropic(new Anthropic(), { repairs: coreRepairs });
 */
export function guardAnthropic<C extends { withOptions(options: { fetch: Fetch }): unknown }>(
  client: C,
  options: GuardAnthropicOptions = {},
): C {
  return client.withOptions({ fetch: guardAnthropicFetch(options) }) as C;
}
