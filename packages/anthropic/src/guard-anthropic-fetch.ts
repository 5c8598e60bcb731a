import { type MessagesRepairOptions, MessagesStreamRepair } from "./messages-stream-repair.js";
import { SseEvents } from "./sse-events.js";

/** The `fetch` a guard sends with. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface GuardAnthropicOptions extends MessagesRepairOptions {
  /** The `fetch` to send with (default: the global one). */
  fetch?: Fetch;
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
 * The repaired SSE body of a streamed Messages API answer: its events through `MessagesStreamRepair`, read from
 * `body` as the reader asks; cancelling it cancels the source.
 *
 * @example
 * const repaired = repairMessagesStream(response.body, { repairs: coreRepairs });
 */
export function repairMessagesStream(
  body: ReadableStream<Uint8Array>,
  options: MessagesRepairOptions = {},
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
 * a streamed answer (`text/event-stream`) has its `tool_use` blocks repaired and decided by core's rules as they
 * stream (see `MessagesStreamRepair`); every other request and answer, error bodies included, goes through as it
 * came.
 *
 * @example
 * import Anthropic from "@anthropic-ai/sdk";
 * import { coreRepairs } from "@toolcall/core";
 * import { guardAnthropicFetch } from "@toolcall/anthropic";
 *
 * const client = new Anthropic({ fetch: guardAnthropicFetch({ repairs: coreRepairs }) });
 */
export function guardAnthropicFetch(options: GuardAnthropicOptions = {}): Fetch {
  const { fetch: send = globalThis.fetch, ...repairOptions } = options;
  return async (input, init) => {
    const response = await send(input, init);
    if (!isMessagesRequest(input, init) || !response.ok || response.body === null) return response;
    if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) return response;
    return new Response(repairMessagesStream(response.body, repairOptions), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
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
