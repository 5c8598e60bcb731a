import { type OpenAIRepairOptions, sanitizeChatMessages, sanitizeResponseInput } from "@toolcall/openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import type { RepairedApi } from "./repair-json-response.js";

/** What the proxy learns from a request body and what it sends upstream. */
export interface SanitizedRequest {
  /** The client's own buffer when nothing changed (its bytes are kept, prefix caches depend on them). */
  body: Buffer;
  changed: boolean;
  /** Whether the client asked for a stream. */
  stream: boolean;
  /** The request's tools, for extractors that type values by schema. */
  tools: unknown[];
}

/**
 * Sanitizes the history in a Chat Completions or Responses API request body (RULES.md R4) so a poisoned session is
 * accepted by a strict upstream. A body that is not JSON, or has no history, is sent as it came: the upstream
 * answers it as it would have.
 *
 * @example
 * sanitizeRequestBody({ api: "chat.completions", body, options: { repairs: coreRepairs } });
 * // { body: <sanitized bytes>, changed: true, stream: false, tools: [] }
 */
export function sanitizeRequestBody(args: {
  api: RepairedApi;
  body: Buffer;
  options: OpenAIRepairOptions;
}): SanitizedRequest {
  const unchanged = (parsed?: Record<string, unknown>): SanitizedRequest => ({
    body: args.body,
    changed: false,
    stream: parsed?.stream === true,
    tools: Array.isArray(parsed?.tools) ? (parsed.tools as unknown[]) : [],
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(args.body.toString("utf8"));
  } catch {
    return unchanged();
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return unchanged();
  const request = parsed as Record<string, unknown>;
  let next: Record<string, unknown> | undefined;
  if (args.api === "chat.completions") {
    if (!Array.isArray(request.messages)) return unchanged(request);
    const { messages } = sanitizeChatMessages(request.messages as ChatCompletionMessageParam[], args.options);
    if (messages !== request.messages) next = { ...request, messages };
  } else {
    if (!Array.isArray(request.input)) return unchanged(request);
    const { input } = sanitizeResponseInput(request.input as ResponseInputItem[], args.options);
    if (input !== request.input) next = { ...request, input };
  }
  if (next === undefined) return unchanged(request);
  return { ...unchanged(request), body: Buffer.from(JSON.stringify(next), "utf8"), changed: true };
}
