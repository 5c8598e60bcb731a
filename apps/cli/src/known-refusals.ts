/**
 * Which providers are known, from their own literal error texts, to refuse a history with each issue. Only what a
 * provider was seen answering with HTTP 400 (or 500) is listed; an issue with no entry breaks a rule but no provider
 * is known to refuse it (recorded traffic shows OpenAI and Anthropic answering 200 to histories that call a tool the
 * request no longer offers, or whose arguments break the tool's schema).
 *
 * This table stands until core's provider profiles are on main, whose data says the same per provider; the command
 * line then reads them instead (`--provider`, `toolcall providers`).
 */
const KNOWN_REFUSALS: Readonly<Record<string, readonly string[]>> = {
  tool_result_missing: ["OpenAI", "Anthropic", "DeepSeek", "Qwen (DashScope)", "Bedrock"],
  tool_result_orphan: ["OpenAI", "Anthropic", "Qwen (DashScope)"],
  arguments_invalid_json: ["vLLM", "llama.cpp", "Qwen (DashScope)", "MiniMax", "xAI"],
  arguments_truncated: ["vLLM", "llama.cpp", "Qwen (DashScope)", "MiniMax", "xAI"],
  arguments_empty: ["xAI"],
  arguments_not_object: ["Anthropic", "Ollama", "SGLang"],
  id_duplicate: ["Zhipu GLM"],
  name_invalid: ["OpenAI", "Groq"],
  tool_call_id_missing: ["OpenAI", "Groq"],
  role_unknown: ["OpenAI"],
  content_missing: ["OpenAI"],
  block_invalid: ["Anthropic"],
};

/**
 * The providers known to refuse a history with this issue (empty when none is known).
 *
 * @example
 * knownRefusals("tool_result_missing"); // ["OpenAI", "Anthropic", …]
 * knownRefusals("unknown_tool"); // []
 */
export function knownRefusals(code: string): readonly string[] {
  return KNOWN_REFUSALS[code] ?? [];
}
