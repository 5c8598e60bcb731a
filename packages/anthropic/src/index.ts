export {
  ANTHROPIC_BLOCK_TYPES,
  type AnthropicMessageView,
  addressKey,
  applyBlockEdits,
  type BlockAddress,
  type BlockEdits,
  type BlocksReading,
  readAnthropicMessages,
} from "./anthropic-blocks.js";
export { anthropicFormats } from "./anthropic-formats.js";
export { claudeCodeFormat } from "./claude-code-format.js";
export { anthropicMessagesFormat } from "./messages-format.js";
