import { type OpenAIRepairOptions, repairChatCompletion, repairResponse } from "@toolcall/openai";
import type { ChatCompletion } from "openai/resources/chat/completions";
import type { Response } from "openai/resources/responses/responses";
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
  let parsed: unknown;
  try {
    parsed = JSON.parse(args.body.toString("utf8"));
  } catch {
    return { ok: false, reason: "not_json", message: "the upstream's response body is not JSON" };
  }
  try {
    let repaired: unknown = parsed;
    if (args.api === "chat.completions") {
      if (!isObject(parsed) || !Array.isArray(parsed.choices))
        return { ok: true, body: args.body, changed: false };
      let completion = parsed as unknown as ChatCompletion;
      if (args.extractors.length > 0)
        completion = extractCompletionContentCalls({
          completion,
          extractors: args.extractors,
          context: args.context,
          onReport: args.onExtract,
        });
      repaired = repairChatCompletion(completion, args.options).completion;
    } else {
      if (!isObject(parsed) || !Array.isArray(parsed.output))
        return { ok: true, body: args.body, changed: false };
      repaired = repairResponse(parsed as unknown as Response, args.options).response;
    }
    if (repaired === parsed) return { ok: true, body: args.body, changed: false };
    return { ok: true, body: Buffer.from(JSON.stringify(repaired), "utf8"), changed: true };
  } catch (error) {
    return { ok: false, reason: "repair_failed", message: (error as Error).message };
  }
}
