import type { SanitizeChange } from "@toolcall/core";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { sanitizeChatMessages } from "../chat/sanitize-chat-messages.js";
import type { OpenAIApi, OpenAIRepairOptions } from "../options.js";
import { sanitizeResponsesInput } from "../responses/sanitize-responses-input.js";
import { utf8 } from "./bytes.js";
import { changedJson } from "./changed-json.js";

/** A request body on its way up, and what the exchange learned from it. */
export interface RepairedRequestBody {
  /** The bytes to send: the very input when nothing changed (prefix caches depend on the bytes). */
  body: Uint8Array;
  changed: boolean;
  /** Whether the request asks for a stream. */
  stream: boolean;
  /** The request's tools (for parsers that type values by schema). */
  tools: unknown[];
  /** What sanitizing changed (R4), each also told to `onRepair`. */
  changes: SanitizeChange[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The request with its history sanitized, or `undefined` when it has none or nothing changed. */
function sanitized(
  api: OpenAIApi,
  request: Record<string, unknown>,
  options: OpenAIRepairOptions,
): { request: Record<string, unknown>; changes: SanitizeChange[] } | undefined {
  if (api === "chat.completions") {
    if (!Array.isArray(request.messages)) return undefined;
    const result = sanitizeChatMessages(request.messages as ChatCompletionMessageParam[], options);
    return result.messages === request.messages
      ? undefined
      : { request: { ...request, messages: result.messages }, changes: result.changes };
  }
  if (!Array.isArray(request.input)) return undefined;
  const result = sanitizeResponsesInput(request.input as ResponseInputItem[], options);
  return result.input === request.input
    ? undefined
    : { request: { ...request, input: result.input }, changes: result.changes };
}

/**
 * Sanitizes the history in a Chat Completions or Responses API request body (R4), so a session poisoned by one
 * malformed call is accepted by a strict provider. A body that needs nothing keeps its bytes; a changed one is
 * compact JSON with every number as written. A body that is not JSON, or has no history, goes as it came: the
 * provider answers it as it would have.
 *
 * @example
 * repairRequestBody({ api: "chat.completions", body, options: { repairs: coreRepairs } });
 * // { body: <sanitized bytes>, changed: true, stream: false, tools: [], changes: [ … ] }
 */
export function repairRequestBody(args: {
  api: OpenAIApi;
  body: Uint8Array;
  options?: OpenAIRepairOptions;
}): RepairedRequestBody {
  const options = args.options ?? {};
  const unchanged = (parsed?: Record<string, unknown>): RepairedRequestBody => ({
    body: args.body,
    changed: false,
    stream: parsed?.stream === true,
    tools: Array.isArray(parsed?.tools) ? (parsed.tools as unknown[]) : [],
    changes: [],
  });
  const text = new TextDecoder().decode(args.body);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return unchanged();
  }
  if (!isObject(parsed)) return unchanged();
  const next = options.sanitize === false ? undefined : sanitized(args.api, parsed, options);
  if (next === undefined) return unchanged(parsed);
  // The lossless pass repeats the same decisions: its reports would tell every change twice.
  const quiet = { ...options, onRepair: undefined };
  const written = changedJson({
    text,
    changed: next.request,
    redo: (exact) => (isObject(exact) ? (sanitized(args.api, exact, quiet)?.request ?? exact) : exact),
  });
  return { ...unchanged(parsed), body: utf8(written), changed: true, changes: next.changes };
}
