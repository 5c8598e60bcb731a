import type { ContentCallExtractor } from "./content-call-extractor.js";
import { gemmaContentCalls } from "./gemma-content-calls.js";
import { qwenContentCalls } from "./qwen-content-calls.js";

/**
 * The syntaxes `--content-calls` can name: `gemma` (Gemma 4's native calls) and `qwen` (Qwen3-Coder / Qwen3.5 XML,
 * typed by the request's tool schemas). Another model family's syntax is one more `ContentCallExtractor` here.
 *
 * @example
 * CONTENT_CALL_EXTRACTORS.qwen.name; // "qwen"
 */
export const CONTENT_CALL_EXTRACTORS: Readonly<Record<string, ContentCallExtractor>> = {
  gemma: gemmaContentCalls,
  qwen: qwenContentCalls,
};
