import { type OpenAIRepairOptions, repairChatCompletion, repairResponse } from "@toolcall/openai";
import type { ChatCompletion } from "openai/resources/chat/completions";
import type { Response } from "openai/resources/responses/responses";
import { changedBody } from "./changed-body.js";
import type { ContentCallExtractor, ExtractionContext } from "./content-call-extractor.js";
import { type ExtractionReport, extractCompletionContentCalls } from "./extract-content-calls.js";

/** The two APIs the proxy repairs. */
export type RepairedApi = "chat.completions" | "responses";

export type JsonRepairResult =
  /** `body` is the upstream's own buffer when nothing changed (its bytes are kept). */
  | { ok: true; body: Buffer; changed: boolean }
  | { ok: false; reason: "not_json" | "repair_failed"; message: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Repairs a whole (non-streamed) response body: Chat Completions tool calls (and, when extractors are given, native
 * calls left in content), or Responses API function calls. Bytes are kept when nothing changed; a body of another
 * shape is passed on as it is; a body that is not JSON is reported.
 *
 * @example
 * repairJsonResponse({ api: "chat.completions", body, options: { repairs: coreRepairs }, extractors: [], context });
 * // { ok: true, body: <repaired bytes>, changed: true }
 */
export function repairJsonResponse(args: {
  api: RepairedApi;
  body: Buffer;
  options: OpenAIRepairOptions;
  extractors: readonly ContentCallExtractor[];
  context: ExtractionContext;
  onExtract?: (report: ExtractionReport) => void;
}): JsonRepairResult {
  const text = args.body.toString("utf8");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: "not_json", message: "the upstream's response body is not JSON" };
  }
  try {
    const repaired = repairedAnswer(args, parsed);
    if (repaired === parsed) return { ok: true, body: args.body, changed: false };
    const body = changedBody({
      text,
      changed: repaired,
      redo: (exact) => graftRepairs(args.api, exact, parsed as Record<string, unknown>, repaired),
    });
    return { ok: true, body, changed: true };
  } catch (error) {
    return { ok: false, reason: "repair_failed", message: (error as Error).message };
  }
}

/** The answer with its calls repaired (the same object when nothing changed, or when it has another shape). */
function repairedAnswer(
  args: {
    api: RepairedApi;
    options: OpenAIRepairOptions;
    extractors: readonly ContentCallExtractor[];
    context: ExtractionContext;
    onExtract?: (report: ExtractionReport) => void;
  },
  parsed: unknown,
): unknown {
  if (args.api === "chat.completions") {
    if (!isObject(parsed) || !Array.isArray(parsed.choices)) return parsed;
    let completion = parsed as unknown as ChatCompletion;
    if (args.extractors.length > 0)
      completion = extractCompletionContentCalls({
        completion,
        extractors: args.extractors,
        context: args.context,
        onReport: args.onExtract,
      });
    return repairChatCompletion(completion, args.options).completion;
  }
  if (!isObject(parsed) || !Array.isArray(parsed.output)) return parsed;
  return repairResponse(parsed as unknown as Response, args.options).response;
}

/**
 * The exact (lossless) answer with what the repair changed put in: for Chat Completions, the message and finish
 * reason of each changed choice (its logprobs stay exact); for the Responses API, each changed output item. The
 * changed parts hold strings (call ids, names, arguments text, content), so nothing exact is lost, and the calls
 * the client gets are the very ones the reports and logs name (a call recovered from content keeps its id).
 * `repaired` itself when the exact tree has another shape.
 */
function graftRepairs(
  api: RepairedApi,
  exact: unknown,
  parsed: Record<string, unknown>,
  repaired: unknown,
): unknown {
  const key = api === "chat.completions" ? "choices" : "output";
  const before = parsed[key] as unknown[];
  const after = (repaired as Record<string, unknown>)[key] as unknown[];
  if (!isObject(exact) || !Array.isArray(exact[key])) return repaired;
  const items = exact[key] as unknown[];
  if (items.length !== before.length || after.length !== before.length) return repaired;
  const grafted = items.map((item, i) => {
    const next = after[i];
    if (next === before[i]) return item;
    if (api === "responses" || !isObject(item) || !isObject(next)) return next;
    return { ...item, message: next.message, finish_reason: next.finish_reason };
  });
  return { ...exact, [key]: grafted };
}
