import type { ContentCallExtractor, ExtractionContext, OpenAIRepairOptions } from "@toolcall/openai";
import {
  type ExtractionReport,
  extractCompletionContentCallsSteps,
  repairResponseBodySteps,
} from "@toolcall/openai/exchange";
import type { ChatCompletion } from "openai/resources/chat/completions";

/** The two APIs the proxy repairs. */
export type RepairedApi = "chat.completions" | "responses";

export type JsonRepairResult =
  /** `body` is the upstream's own buffer when nothing changed (its bytes are kept). */
  | { ok: true; body: Uint8Array; changed: boolean }
  | { ok: false; reason: "not_json" | "repair_failed"; message: string };

/**
 * Repairs a whole (non-streamed) response body with `@toolcall/openai`'s exchange repair in steps
 * (`repairResponseBodySteps`, the steps of the `repairResponseBody` the guarded `fetch` uses), to be run one step per
 * turn of the event loop: Chat Completions tool calls (and, when extractors are given, native calls left in content,
 * recovered first, one extractor over one choice's content per step), or Responses API function calls. Bytes are
 * kept when nothing changed, numbers as written when something did; a body of another shape is passed on as it is; a
 * body that is not JSON is reported.
 *
 * @example
 * const steps = repairJsonResponseSteps({ api: "chat.completions", body, options: { repairs: coreRepairs }, extractors: [], context });
 * let next = steps.next();
 * while (!next.done) next = steps.next(); // the proxy takes one step per turn of the event loop
 * next.value; // { ok: true, body: <repaired bytes>, changed: true }
 */
export function* repairJsonResponseSteps(args: {
  api: RepairedApi;
  body: Uint8Array;
  options: OpenAIRepairOptions;
  extractors: readonly ContentCallExtractor[];
  context: ExtractionContext;
  onExtract?: (report: ExtractionReport) => void;
}): Generator<void, JsonRepairResult, void> {
  const { extractors } = args;
  const prepare =
    args.api === "chat.completions" && extractors.length > 0
      ? (answer: Record<string, unknown>) =>
          extractCompletionContentCallsSteps({
            completion: answer as unknown as ChatCompletion,
            extractors,
            context: args.context,
            onReport: args.onExtract,
          }) as unknown as Generator<number, Record<string, unknown>, void>
      : undefined;
  const repaired = yield* repairResponseBodySteps({
    api: args.api,
    body: args.body,
    options: args.options,
    ...(prepare === undefined ? {} : { prepare }),
  });
  if (!repaired.ok)
    return {
      ok: false,
      reason: repaired.reason,
      message: repaired.reason === "not_json" ? "the upstream's response body is not JSON" : repaired.message,
    };
  return { ok: true, body: repaired.body, changed: repaired.changed };
}
