import { createRecordEngine } from "@toolcall/core";
import type { RecordCheck, RecordRepair } from "@toolcall/core/kit";
import { bedrockConverseFormat } from "./converse-format.js";

const engine = createRecordEngine({
  providers: { mode: "named", ids: ["bedrock-converse"] },
  provider: "bedrock-converse",
});

/**
 * What Bedrock's Converse API refuses in a request body, and what core's rules find, in Bedrock's own words where
 * its profile has them (core's `bedrock-converse` profile), with `tool_config_missing` for tool blocks sent without
 * `toolConfig`.
 *
 * @example
 * validateBedrockConverse(body).issues; // [{ code: "tool_result_missing", message: "bedrock-converse 400: …", … }]
 */
export function validateBedrockConverse(body: unknown): RecordCheck {
  return engine.check(bedrockConverseFormat, body);
}

/**
 * The request body repaired for Bedrock's Converse API (core's rules, then the `bedrock-converse` profile's fixes),
 * written back in Converse's own blocks: `value` is the body to send when anything changed.
 *
 * @example
 * const { value, changes } = sanitizeBedrockConverse(body);
 */
export function sanitizeBedrockConverse(body: unknown): RecordRepair {
  return engine.repair(bedrockConverseFormat, body);
}
