import type { ConversationFormat } from "@toolcall/core/kit";
import { claudeCodeFormat } from "./claude-code-format.js";
import { anthropicMessagesFormat } from "./messages-format.js";

/**
 * Every Anthropic format, in the order to try them when detecting: Claude Code transcripts (whole files), then
 * Messages records.
 *
 * @example
 * const format = anthropicFormats.find((f) => f.matches(value));
 */
export const anthropicFormats: readonly ConversationFormat[] = [claudeCodeFormat, anthropicMessagesFormat];
