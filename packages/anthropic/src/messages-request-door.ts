import { createRecordEngine, type SanitizeOptions } from "@toolcall/core";
import type { RecordRepair } from "@toolcall/core/kit";
import { anthropicMessagesFormat } from "./messages-format.js";

/** What {@link sanitizeMessagesRequest} takes besides the body: core's R4 options, and the provider profile. */
export interface SanitizeMessagesRequestOptions
  extends Omit<SanitizeOptions, "provider" | "tools" | "splitMergedCalls"> {
  /** The provider profile whose fixes run after core's (default `"anthropic"`). */
  provider?: string;
}

/**
 * A Messages API request body with its history sanitized (R4, then the provider profile's fixes, default
 * `anthropic`): `tool_use` input every strict provider accepts, every `tool_result` answering a call of its turn.
 * `value` is the body to send when anything changed (Anthropic's own shapes; what no rule touched as it was).
 *
 * @example
 * const { value, changes } = sanitizeMessagesRequest({ body: { model, max_tokens: 1024, messages } });
 */
export function sanitizeMessagesRequest(args: {
  body: unknown;
  options?: SanitizeMessagesRequestOptions;
}): RecordRepair {
  const options = args.options ?? {};
  const engine = createRecordEngine({
    provider: options.provider ?? "anthropic",
    ...(options.repairs === undefined ? {} : { repairs: options.repairs }),
    ...(options.policy === undefined ? {} : { policy: options.policy }),
    ...(options.missingResult === undefined ? {} : { missingResult: options.missingResult }),
    ...(options.syntheticResult === undefined ? {} : { syntheticResult: options.syntheticResult }),
  });
  return engine.repair(anthropicMessagesFormat, args.body);
}
