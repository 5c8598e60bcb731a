import { expect } from "vitest";
import {
  type CheckConversationFormatOptions,
  type CheckedConversationFormat,
  type ConversationFormatSample,
  checkConversationFormat,
} from "./check-conversation-format.js";
import type { ConformanceOptions } from "./implementation.js";

/**
 * Asserts, in a vitest test, that a conversation format round trips `sample` (see `checkConversationFormat`): the
 * test fails with every issue's code and message. Returns the sample's round trip, the record as written and its
 * change count, for the test's own further checks.
 *
 * @example
 * import { expectConversationFormat } from "@toolcall/conformance/vitest";
 * const { value, changes } = expectConversationFormat(openaiChatFormat, request, {
 *   sanitize: (messages, options) => sanitizeHistory(messages, options),
 *   options: { repairs: coreRepairs },
 * });
 */
export function expectConversationFormat<O extends object = ConformanceOptions>(
  format: CheckedConversationFormat,
  sample: unknown,
  options: CheckConversationFormatOptions<O>,
): ConversationFormatSample {
  const result = checkConversationFormat(format, [sample], options);
  if (!result.ok)
    expect.fail(
      [
        `${format.id}: the round trip`,
        ...result.issues.map((issue) => `  ${issue.code}: ${issue.message}`),
      ].join("\n"),
    );
  return result.samples[0] as ConversationFormatSample;
}
