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
export { aiSdkFormats } from "./ai-sdk-formats.js";
export {
  type DecideOptions,
  decideToolCall,
  METADATA_KEY,
} from "./decide-tool-call.js";
export { coreFinishReason } from "./finish-reason.js";
export { type FromNeutralOptions, fromNeutralMessages } from "./from-neutral-messages.js";
export { aiSdkModelMessagesFormat } from "./model-messages-format.js";
export { type RepairGenerateOptions, repairGenerateResult } from "./repair-generate-result.js";
export { repairToolCallStream } from "./repair-tool-call-stream.js";
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
export {
  resolveContentCalls,
  type ToolcallMiddlewareOptions,
  toolcallMiddleware,
} from "./toolcall-middleware.js";
export { type ToolcallRepairOptions, toolcallRepair } from "./toolcall-repair.js";
export { aiSdkUiMessagesFormat } from "./ui-messages-format.js";
export { aiSdkUiMessagesV4Format } from "./ui-messages-v4-format.js";
