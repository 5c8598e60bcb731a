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
  parseRepairNames,
  type RepairRule,
  type Result,
  type SanitizeChange,
  type SanitizePolicy,
} from "@toolcall/core";
export {
  type DecideOptions,
  decideToolCall,
  METADATA_KEY,
  type ToolCallReport,
} from "./decide-tool-call.js";
export { coreFinishReason } from "./finish-reason.js";
export { type FromNeutralOptions, fromNeutralMessages } from "./from-neutral-messages.js";
export { repairGenerateResult } from "./repair-generate-result.js";
export { repairToolCallStream } from "./repair-tool-call-stream.js";
export type { ToolcallSummary } from "./report-summary.js";
export {
  type SanitizeModelMessagesOptions,
  type SanitizeModelMessagesResult,
  sanitizeModelMessages,
} from "./sanitize-model-messages.js";
export {
  type SanitizeUIMessagesOptions,
  type SanitizeUIMessagesResult,
  sanitizeUIMessages,
} from "./sanitize-ui-messages.js";
export { toNeutralMessages } from "./to-neutral-messages.js";

export { type ToolcallMiddlewareOptions, toolcallMiddleware } from "./toolcall-middleware.js";
export { type ToolcallRepairOptions, toolcallRepair } from "./toolcall-repair.js";
