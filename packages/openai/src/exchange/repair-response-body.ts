import { runSteps } from "@toolcall/core/kit";
import type { ChatCompletion } from "openai/resources/chat/completions";
import type { Response } from "openai/resources/responses/responses";
import { repairChatCompletionSteps } from "../chat/repair-chat-completion.js";
import type { ArgumentsReport, OpenAIApi, OpenAIRepairOptions } from "../options.js";
import { repairResponsesResultSteps } from "../responses/repair-responses-result.js";
import { RESPONSE_STEP_SIZE, StepPace } from "../step-pace.js";
import { utf8 } from "./bytes.js";
import { changedJsonSteps } from "./changed-json.js";
import { splicedArguments } from "./spliced-arguments.js";

/** What repairing a whole JSON answer gives: the body (its bytes kept when nothing changed) with a report per call, or why it could not be read. */
export type RepairedResponseBody =
  /** `body` is the input itself when nothing changed (its bytes are kept). */
  | { ok: true; body: Uint8Array; changed: boolean; reports: ArgumentsReport[] }
  | { ok: false; reason: "not_json" | "repair_failed"; message: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The exact (lossless) answer with what the repair changed put in: for Chat Completions, the message and finish
 * reason of each changed choice (its logprobs stay exact); for the Responses API, each changed output item. The
 * changed parts hold strings (ids, names, arguments text, content), so nothing exact is lost.
 */
function graft(api: OpenAIApi, exact: unknown, parsed: Record<string, unknown>, repaired: unknown): unknown {
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

/** What runs on the parsed answer before the repair: at once, or in weighted steps (see {@link repairResponseBodySteps}). */
export type PrepareAnswer = (
  answer: Record<string, unknown>,
) => Record<string, unknown> | Generator<number, Record<string, unknown>, void>;

function isSteps(value: unknown): value is Generator<number, Record<string, unknown>, void> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { next?: unknown }).next === "function" &&
    typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function"
  );
}

/** Arguments of {@link repairResponseBody} and {@link repairResponseBodySteps}. */
export interface RepairResponseBodyArgs {
  api: OpenAIApi;
  body: Uint8Array;
  options?: OpenAIRepairOptions;
  /**
   * Runs on the parsed answer before the repair (native calls left in content, for instance). It may return a
   * generator instead of the answer: its steps are then taken as the repair's own, each yield saying how many
   * characters of work the step did.
   */
  prepare?: PrepareAnswer;
  /** Characters of work between two yields of {@link repairResponseBodySteps} (default `RESPONSE_STEP_SIZE`). */
  stepSize?: number;
}

/**
 * Repairs a whole (not streamed) Chat Completions or Responses API answer body: each function call through core's
 * fresh-answer rule (repaired where core can; a call no tool can run on keeps the model's own text). Bytes are kept
 * when nothing changed; when only calls' arguments changed (Chat Completions), the upstream's own text with those
 * strings replaced; otherwise the answer written again, every number as written; a body of another shape goes on as
 * it is; a body that is not JSON is reported.
 *
 * @example
 * repairResponseBody({ api: "chat.completions", body, options: { repairs: coreRepairs } });
 * // { ok: true, body: <repaired bytes>, changed: true, reports: [ … ] }
 */
export function repairResponseBody(args: RepairResponseBodyArgs): RepairedResponseBody {
  return runSteps(repairResponseBodySteps(args));
}

/**
 * {@link repairResponseBody} in steps, for a server that repairs large answers between other requests (run one step
 * per turn of the event loop): the body is decoded in slices, then parsed, prepared, each call's arguments repaired
 * in core's steps (one repair rule per step) and the answer written again, and a yield comes each time about
 * `stepSize` characters of work were done (64 Ki by default), so a small answer takes no yield at all. What cannot
 * be split is one step whatever its size: the `JSON.parse` of the body, one repair rule over one call's arguments,
 * one step of `prepare`, writing the changed answer. The result is the one `repairResponseBody` gives.
 *
 * @example
 * const steps = repairResponseBodySteps({ api: "chat.completions", body, options: { repairs: coreRepairs } });
 * let next = steps.next();
 * while (!next.done) {
 *   await new Promise((resolve) => setImmediate(resolve)); // other requests are answered meanwhile
 *   next = steps.next();
 * }
 * next.value; // { ok: true, body: <repaired bytes>, changed: true, reports: [ … ] }
 */
export function* repairResponseBodySteps(
  args: RepairResponseBodyArgs,
): Generator<void, RepairedResponseBody, void> {
  const options = args.options ?? {};
  const pace = new StepPace(
    typeof args.stepSize === "number" && args.stepSize >= 1 ? args.stepSize : RESPONSE_STEP_SIZE,
  );
  const text = yield* decodeInSlices(args.body, pace);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: "not_json", message: "the response body is not JSON" };
  }
  if (pace.add(text.length)) yield;
  const reports: ArgumentsReport[] = [];
  try {
    let answer = parsed;
    const key = args.api === "chat.completions" ? "choices" : "output";
    if (!isObject(answer) || !Array.isArray(answer[key]))
      return { ok: true, body: args.body, changed: false, reports };
    if (args.prepare !== undefined) {
      const prepared = args.prepare(answer);
      answer = isSteps(prepared) ? yield* pace.through(prepared) : prepared;
    }
    const repaired =
      args.api === "chat.completions"
        ? yield* pace.through(repairChatCompletionSteps(answer as unknown as ChatCompletion, options))
        : yield* pace.through(repairResponsesResultSteps(answer as unknown as Response, options));
    reports.push(...repaired.reports);
    const result = "completion" in repaired ? repaired.completion : repaired.response;
    if (result === parsed) return { ok: true, body: args.body, changed: false, reports };
    // Only calls' arguments changed (the common repair): the upstream's text with those strings replaced.
    const spliced =
      args.api === "chat.completions" && answer === parsed
        ? splicedArguments({ text, parsed, repaired: result })
        : undefined;
    if (spliced !== undefined) return { ok: true, body: utf8(spliced), changed: true, reports };
    const written = yield* pace.through(
      changedJsonSteps({
        text,
        changed: result,
        redo: (exact) => graft(args.api, exact, parsed as Record<string, unknown>, result),
      }),
    );
    const body = utf8(written);
    return { ok: true, body, changed: true, reports };
  } catch (error) {
    return { ok: false, reason: "repair_failed", message: (error as Error).message };
  }
}

/** Decodes bodies of one slice, each in one call (no state kept between calls); a body in slices has its own. */
const WHOLE_BODY_DECODER = new TextDecoder();

/** The body's text, decoded a step's worth of bytes at a time (UTF-8 sequences split between slices kept whole). */
function* decodeInSlices(body: Uint8Array, pace: StepPace): Generator<void, string, void> {
  if (body.length <= pace.size) {
    const text = WHOLE_BODY_DECODER.decode(body);
    if (pace.add(body.length)) yield;
    return text;
  }
  const decoder = new TextDecoder();
  const parts: string[] = [];
  for (let at = 0; at < body.length; at += pace.size) {
    const end = Math.min(at + pace.size, body.length);
    parts.push(decoder.decode(body.subarray(at, end), { stream: end < body.length }));
    if (pace.add(end - at)) yield;
  }
  return parts.join("");
}
