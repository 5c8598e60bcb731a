import { createRecordEngine } from "@toolcall/core";
import type { RecordCheck, RecordRepair } from "@toolcall/core/kit";
import { geminiContentsFormat } from "./gemini-contents-format.js";

const engine = createRecordEngine({ providers: { mode: "named", ids: ["gemini"] }, provider: "gemini" });

/**
 * What the Gemini API refuses in a request body's history, and what core's rules find, in Gemini's own words where
 * its profile has them (core's `gemini` provider profile).
 *
 * @example
 * validateGeminiContents({ contents }).issues; // [{ code: "tool_result_missing", … }]
 */
export function validateGeminiContents(body: unknown): RecordCheck {
  return engine.check(geminiContentsFormat, body);
}

/**
 * The request body repaired for the Gemini API (core's rules, then the `gemini` profile's fixes), written back in
 * Gemini's own shapes: `value` is the body to send when anything changed.
 *
 * @example
 * const { value, changes } = sanitizeGeminiContents(body);
 */
export function sanitizeGeminiContents(body: unknown): RecordRepair {
  return engine.repair(geminiContentsFormat, body);
}
