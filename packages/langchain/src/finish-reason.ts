import type { BaseMessage } from "@langchain/core/messages";
import type { FinishReason } from "@toolcall/core";

/** Where providers' LangChain integrations put why generation stopped, in `response_metadata`. */
const FINISH_KEYS = ["finish_reason", "stop_reason", "stopReason", "finishReason", "done_reason"] as const;

/** Each provider's word for "stopped at the token limit", as OpenAI calls it (`length`). */
const LENGTH_WORDS = new Set(["length", "max_tokens", "MAX_TOKENS", "max_output_tokens"]);

/**
 * Why a LangChain AI message stopped, in OpenAI's words: `response_metadata.finish_reason` (OpenAI, vLLM and
 * other compatible servers), `stop_reason`/`stopReason` (Anthropic, Bedrock), `finishReason` (Google),
 * `done_reason` (Ollama). Every token-limit stop becomes `"length"`, so cut-off arguments are `truncated` and
 * never repaired. `undefined` when the message does not say.
 *
 * @example
 * finishReasonOf(new AIMessage({ content: "", response_metadata: { stop_reason: "max_tokens" } })); // "length"
 */
export function finishReasonOf(message: BaseMessage): FinishReason | undefined {
  const metadata = (message.response_metadata ?? {}) as Record<string, unknown>;
  for (const key of FINISH_KEYS) {
    const value = metadata[key];
    if (typeof value === "string" && value !== "") return LENGTH_WORDS.has(value) ? "length" : value;
  }
  return undefined;
}
