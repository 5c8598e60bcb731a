import type { ConversationFormat } from "@toolcall/core/kit";
import { adkEvalSetFormat } from "./adk-eval-set-format.js";
import { adkSessionFormat } from "./adk-session-format.js";
import { geminiCliJsonlFormat } from "./gemini-cli-jsonl-format.js";
import { geminiCliSessionFormat } from "./gemini-cli-session-format.js";
import { geminiContentsFormat } from "./gemini-contents-format.js";

/**
 * Every Gemini format, for a tool composing formats (`createFormatRegistry([...geminiFormats, …])`).
 *
 * @example
 * createFormatRegistry(geminiFormats).detect({ contents: [] }, "record")?.format.id; // "gemini-contents"
 */
export const geminiFormats: readonly ConversationFormat[] = [
  geminiCliSessionFormat,
  geminiCliJsonlFormat,
  adkSessionFormat,
  adkEvalSetFormat,
  geminiContentsFormat,
];
