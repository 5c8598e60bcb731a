export {
  type ChatMessage,
  coreRepairs,
  createJsonrepairRepair,
  type DecodeStatus,
  type FinishReason,
  getProviderProfile,
  type Issue,
  type IssueCode,
  listProviderProfiles,
  type ProviderId,
  type ProviderOption,
  type Result,
  type SanitizeChange,
  type SanitizePolicy,
  type ToolcallOptions,
} from "@toolcall/core";
export {
  type ContentCallsOption,
  parseRepairNames,
  type RepairRule,
  TOOLCALL_REPORT_KEY,
  type ToolcallCallReport,
  type ToolcallReport,
} from "@toolcall/core/kit";
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
export {
  type Fetch,
  type GuardAnthropicOptions,
  guardAnthropic,
  guardAnthropicFetch,
  repairMessagesStream,
} from "./guard-anthropic-fetch.js";
export {
  type MessageContentCalls,
  type RecoveredToolUse,
  recoverMessageContentCalls,
} from "./message-content-calls.js";
export { anthropicMessagesFormat } from "./messages-format.js";
export { type SanitizeMessagesRequestOptions, sanitizeMessagesRequest } from "./messages-request-door.js";
export {
  type ContentCallReport,
  type MessagesRepairOptions,
  MessagesStreamRepair,
  type MessagesStreamReport,
  type ToolUseReport,
} from "./messages-stream-repair.js";
export { type SseEvent, SseEvents } from "./sse-events.js";
export { TextBlockCalls, type TextBlockCallsOptions, type TextBlockStep } from "./text-block-calls.js";
