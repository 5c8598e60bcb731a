import { SYNTAXES } from "@toolcall/model-formats";
import type { ContentCallExtractor } from "./content-call-extractor.js";
import { gemmaContentCalls } from "./gemma-content-calls.js";
import { qwenContentCalls } from "./qwen-content-calls.js";
import { syntaxContentCalls } from "./syntax-content-calls.js";

const fromModelFormats: Record<string, ContentCallExtractor> = {};
for (const [id, syntax] of Object.entries(SYNTAXES)) fromModelFormats[id] = syntaxContentCalls({ syntax });

/**
 * The syntaxes `--content-calls` can name: `gemma` (Gemma 4's native calls, also `gemma4`), `qwen` (Qwen3-Coder /
 * Qwen3.5 XML typed by the request's tool schemas, also `qwen3-coder`), and every syntax id of
 * `@toolcall/model-formats` (`hermes`, `glm45`, `glm47`, `kimi-k2`, `deepseek-v3`, `mistral-args`, `llama3-json`,
 * `harmony`, …). `auto` is not here: it is resolved from a chat template at start-up (`detectContentCalls`).
 *
 * @example
 * CONTENT_CALL_EXTRACTORS.qwen.name; // "qwen"
 * CONTENT_CALL_EXTRACTORS.glm47.name; // "glm47"
 */
export const CONTENT_CALL_EXTRACTORS: Readonly<Record<string, ContentCallExtractor>> = Object.freeze({
  gemma: gemmaContentCalls,
  gemma4: gemmaContentCalls,
  qwen: qwenContentCalls,
  "qwen3-coder": qwenContentCalls,
  ...fromModelFormats,
});
