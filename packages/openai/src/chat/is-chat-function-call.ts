import type { ToolCall } from "@toolcall/core";
import { isFunctionCall, isPlainObject } from "@toolcall/core/kit";
import type { ChatCompletionMessageFunctionToolCall } from "openai/resources/chat/completions";

/**
 * Whether a Chat Completions tool call is a function call as core reads it (RULES.md R3): `type: "function"`, or no
 * `type` at all beside a `function` object (some servers leave `type` out).
 *
 * @example
 * isChatFunctionCall({ id: "c1", function: { name: "f", arguments: "{}" } }); // true
 * isChatFunctionCall({ id: "c1", type: "custom", custom: { name: "f", input: "x" } }); // false
 */
export function isChatFunctionCall(call: unknown): call is ChatCompletionMessageFunctionToolCall {
  return isPlainObject(call) && isFunctionCall(call as ToolCall);
}
