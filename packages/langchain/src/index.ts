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
export type { ArgumentsMapping } from "@toolcall/core/kit";
export {
  type ContentCallsOption,
  parseRepairNames,
  type RepairRule,
  TOOLCALL_REPORT_KEY,
  type ToolcallCallReport,
  type ToolcallReport,
} from "@toolcall/core/kit";
export { type CollectedToolCall, type CollectOptions, collectToolCalls } from "./collect-tool-calls.js";
export { finishReasonOf } from "./finish-reason.js";
export { type FromNeutralOptions, fromNeutralMessage, fromNeutralMessages } from "./from-neutral-messages.js";
export { createHistorySanitizer } from "./history-sanitizer.js";
export { langchainFormats } from "./langchain-formats.js";
export { langchainSerializedFormat } from "./langchain-serialized-format.js";
export { langchainStoredFormat } from "./langchain-stored-format.js";
export { type RepairToolCallStreamOptions, repairToolCallStream } from "./repair-tool-call-stream.js";
export {
  type RepairToolCallsOptions,
  type RepairToolCallsResult,
  repairToolCalls,
  type ToolCallDecision,
  type ToolCallOutcome,
  toolcallReport,
} from "./repair-tool-calls.js";
export { RepairedAIMessageChunk } from "./repaired-ai-message-chunk.js";
export {
  type ChatModelLike,
  SafeToolCallsChatModel,
  type SafeToolCallsChatModelFields,
  type SafeToolCallsOptions,
  withSafeToolCalls,
} from "./safe-tool-calls-chat-model.js";
export {
  type SanitizeMessagesOptions,
  type SanitizeMessagesResult,
  sanitizeMessages,
} from "./sanitize-messages.js";
export { STRUCTURED_OUTPUT_KEY, safeStructuredOutput } from "./structured-output.js";
export { type ToNeutralOptions, toNeutralMessage, toNeutralMessages } from "./to-neutral-messages.js";
export { ToolCallRepairer } from "./tool-call-repairer.js";
export { type ValidateMessagesOptions, validateMessages } from "./validate-messages.js";
