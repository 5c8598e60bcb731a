import type { ChatCompletion } from "openai/resources/chat/completions";
import type { Response } from "openai/resources/responses/responses";
import { utf8 } from "./bytes.js";
import { changedJson } from "./changed-json.js";
import type { ArgumentsReport, OpenAIApi, OpenAIRepairOptions } from "./options.js";
import { repairChatCompletion } from "./repair-chat-completion.js";
import { repairResponse } from "./repair-response.js";

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

/**
 * Repairs a whole (not streamed) Chat Completions or Responses API answer body: each function call through core's
 * fresh-answer rule (repaired where core can; a call no tool can run on keeps the model's own text). Bytes are kept
 * when nothing changed; a changed body keeps every number as written; a body of another shape goes on as it is; a
 * body that is not JSON is reported.
 *
 * @example
 * repairResponseBody({ api: "chat.completions", body, options: { repairs: coreRepairs } });
 * // { ok: true, body: <repaired bytes>, changed: true, reports: [ … ] }
 */
export function repairResponseBody(args: {
  api: OpenAIApi;
  body: Uint8Array;
  options?: OpenAIRepairOptions;
  /** Runs on the parsed answer before the repair (native calls left in content, for instance). */
  prepare?: (answer: Record<string, unknown>) => Record<string, unknown>;
}): RepairedResponseBody {
  const options = args.options ?? {};
  const text = new TextDecoder().decode(args.body);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: "not_json", message: "the response body is not JSON" };
  }
  const reports: ArgumentsReport[] = [];
  try {
    let answer = parsed;
    const key = args.api === "chat.completions" ? "choices" : "output";
    if (!isObject(answer) || !Array.isArray(answer[key]))
      return { ok: true, body: args.body, changed: false, reports };
    if (args.prepare !== undefined) answer = args.prepare(answer);
    const repaired =
      args.api === "chat.completions"
        ? repairChatCompletion(answer as unknown as ChatCompletion, options)
        : repairResponse(answer as unknown as Response, options);
    reports.push(...repaired.reports);
    const result = "completion" in repaired ? repaired.completion : repaired.response;
    if (result === parsed) return { ok: true, body: args.body, changed: false, reports };
    const written = changedJson({
      text,
      changed: result,
      redo: (exact) => graft(args.api, exact, parsed as Record<string, unknown>, result),
    });
    return { ok: true, body: utf8(written), changed: true, reports };
  } catch (error) {
    return { ok: false, reason: "repair_failed", message: (error as Error).message };
  }
}
