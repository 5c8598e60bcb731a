import { type OpenAIRepairOptions, sanitizeChatMessages, sanitizeResponseInput } from "@toolcall/openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { changedBody } from "./changed-body.js";
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
  const text = args.body.toString("utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return unchanged();
  }
  if (!isObject(parsed)) return unchanged();
  const next = sanitized(args.api, parsed, args.options);
  if (next === undefined) return unchanged(parsed);
  // The lossless pass repeats the same decisions: its reports would count every change twice.
  const quiet = { ...args.options, onRepair: undefined };
  const body = changedBody({
    text,
    changed: next,
    redo: (exact) => (isObject(exact) ? (sanitized(args.api, exact, quiet) ?? exact) : exact),
  });
  return { ...unchanged(parsed), body, changed: true };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The request with its history sanitized, or `undefined` when it has none or nothing changed. */
function sanitized(
  api: RepairedApi,
  request: Record<string, unknown>,
  options: OpenAIRepairOptions,
): Record<string, unknown> | undefined {
  if (api === "chat.completions") {
    if (!Array.isArray(request.messages)) return undefined;
    const { messages } = sanitizeChatMessages(request.messages as ChatCompletionMessageParam[], options);
    return messages === request.messages ? undefined : { ...request, messages };
  }
  if (!Array.isArray(request.input)) return undefined;
  const { input } = sanitizeResponseInput(request.input as ResponseInputItem[], options);
  return input === request.input ? undefined : { ...request, input };
}
