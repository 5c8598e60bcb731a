import { SYNTAXES } from "@toolcall/model-formats";
import type { ContentCallExtractor } from "@toolcall/openai";
import { syntaxContentCalls } from "@toolcall/openai";

/** The name the proxy gives a syntax in logs and reports: Qwen3-Coder and Gemma 4 keep the ones they always had. */
export function extractorName(id: string): string {
  return id === "qwen3-coder" ? "qwen" : id === "gemma4" ? "gemma" : id;
}

const fromModelFormats: Record<string, ContentCallExtractor> = {};
for (const [id, syntax] of Object.entries(SYNTAXES))
  fromModelFormats[id] = syntaxContentCalls({ syntax, name: extractorName(id) });

/**
 * The syntaxes `--content-calls` can name: every syntax id of `@toolcall/model-formats`' registry (`hermes`, `glm45`,
 * `glm47`, `kimi-k2`, `qwen3-coder`, `gemma4`, `harmony`, …), read by `@toolcall/openai`'s `syntaxContentCalls` with
 * each value typed by the request's tool schemas, and two short names: `qwen` (`qwen3-coder`) and `gemma` (`gemma4`).
 * `auto` is not here: it is resolved from a chat template at start-up (`detectContentCalls`).
 *
 * @example
 * CONTENT_CALL_EXTRACTORS.qwen.name; // "qwen"
 * CONTENT_CALL_EXTRACTORS.glm47.name; // "glm47"
 */
export const CONTENT_CALL_EXTRACTORS: Readonly<Record<string, ContentCallExtractor>> = Object.freeze({
  ...fromModelFormats,
  gemma: fromModelFormats.gemma4 as ContentCallExtractor,
  qwen: fromModelFormats["qwen3-coder"] as ContentCallExtractor,
});

/**
 * Gemma 4's native calls left in content (`<|tool_call>call:NAME{…}<tool_call|>`, RULES.md R7), the thought channel
 * as reasoning: `--content-calls gemma`, model-formats' `gemma4`.
 *
 * @example
 * gemmaContentCalls.parse('<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>', { tools: [] });
 * // { toolCalls: [{ function: { name: "get_weather", arguments: '{"city": "Paris"}' }, … }], content: null, issues: [] }
 */
export const gemmaContentCalls: ContentCallExtractor = CONTENT_CALL_EXTRACTORS.gemma as ContentCallExtractor;

/**
 * Qwen3-Coder / Qwen3.5 calls left in content
 * (`<tool_call><function=NAME><parameter=P>…</parameter></function></tool_call>`, RULES.md R8), each value typed by the
 * request's tool schemas: `--content-calls qwen`, model-formats' `qwen3-coder`.
 *
 * @example
 * qwenContentCalls.parse("<tool_call>\n<function=get_weather>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>", { tools });
 * // { toolCalls: [{ function: { name: "get_weather", arguments: '{"days": 3}' }, … }], content: null, issues: [] }
 */
export const qwenContentCalls: ContentCallExtractor = CONTENT_CALL_EXTRACTORS.qwen as ContentCallExtractor;
