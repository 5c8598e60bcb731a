import { SYNTAXES } from "@toolcall/model-formats";
import type { ContentCallExtractor } from "@toolcall/openai";
import { syntaxContentCalls } from "@toolcall/openai";
import { gemmaContentCalls } from "./gemma-content-calls.js";

const fromModelFormats: Record<string, ContentCallExtractor> = {};
// Qwen3-Coder keeps the name the proxy always gave it (`qwen`, in logs and reports).
for (const [id, syntax] of Object.entries(SYNTAXES))
  fromModelFormats[id] = syntaxContentCalls({ syntax, name: id === "qwen3-coder" ? "qwen" : id });

/**
 * The syntaxes `--content-calls` can name: `gemma` (Gemma 4's native calls, also `gemma4`), `qwen` (Qwen3-Coder /
 * Qwen3.5 XML typed by the request's tool schemas: model-formats' `qwen3-coder`), and every syntax id of
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
  ...fromModelFormats,
  qwen: fromModelFormats["qwen3-coder"] as ContentCallExtractor,
});
