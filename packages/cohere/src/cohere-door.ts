import { createRecordEngine } from "@toolcall/core";
import type { RecordCheck, RecordRepair } from "@toolcall/core/kit";
import { cohereChatFormat } from "./cohere-chat-format.js";

const engine = createRecordEngine({ providers: { mode: "named", ids: ["cohere"] }, provider: "cohere" });

/**
 * What Cohere's v2 Chat API refuses in a request body, and what core's rules find, in Cohere's own words where its
 * profile has them (core's `cohere` profile), with `text_beside_calls` for text content beside calls.
 *
 * @example
 * validateCohereChat(body).issues; // [{ code: "tool_result_missing", message: "no tool result answers …", refusedBy: ["cohere"], … }]
 */
export function validateCohereChat(body: unknown): RecordCheck {
  return engine.check(cohereChatFormat, body);
}

/**
 * The request body repaired for Cohere's v2 Chat API (core's rules, then the `cohere` profile's fixes), written back
 * in Cohere's shapes: `value` is the body to send when anything changed.
 *
 * @example
 * const { value, changes } = sanitizeCohereChat(body);
 */
export function sanitizeCohereChat(body: unknown): RecordRepair {
  return engine.repair(cohereChatFormat, body);
}
