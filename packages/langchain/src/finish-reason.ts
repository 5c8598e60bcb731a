import type { BaseMessage } from "@langchain/core/messages";
import type { FinishReason } from "@toolcall/core";

/**
 * Where providers' LangChain integrations put why generation stopped: in `response_metadata`, or, for a streamed
 * Anthropic message, in `additional_kwargs` (its `message_delta` event's fields).
 */
const FINISH_KEYS = ["finish_reason", "stop_reason", "stopReason", "finishReason", "done_reason"] as const;

/** Each provider's word for "stopped at the token limit", as OpenAI calls it (`length`). */
const LENGTH_WORDS = new Set(["length", "max_tokens", "MAX_TOKENS", "max_output_tokens"]);

/**
 * Why a LangChain AI message stopped, in OpenAI's words: `response_metadata.finish_reason` (OpenAI, vLLM and
 * other compatible servers), `stop_reason`/`stopReason` (Anthropic, Bedrock), `finishReason` (Google),
 * `done_reason` (Ollama); then the same keys in `additional_kwargs` (a streamed `ChatAnthropic` message carries its
 * `stop_reason` there). Every token-limit stop becomes `"length"`, so cut-off arguments are `truncated` and never
 * repaired. `undefined` when the message does not say.
 *
 * @example
 * finishReasonOf(new AIMessage({ content: "", response_metadata: { stop_reason: "max_tokens" } })); // "length"
 */
export function finishReasonOf(message: BaseMessage): FinishReason | undefined {
  for (const fields of [message.response_metadata, message.additional_kwargs]) {
    if (typeof fields !== "object" || fields === null) continue;
    for (const key of FINISH_KEYS) {
      const value = (fields as Record<string, unknown>)[key];
      if (typeof value === "string" && value !== "") return LENGTH_WORDS.has(value) ? "length" : value;
    }
  }
  return undefined;
}
