export {
  type ChatMessage,
  coreRepairs,
  createJsonrepairRepair,
  type DecodeStatus,
  type FinishReason,
  type Issue,
  type IssueCode,
  type RepairRule,
  type SanitizeChange,
  type SanitizePolicy,
} from "@toolcall/core";
export { type FromNeutralOptions, fromNeutralMessages } from "./from-neutral-messages.js";
export {
  type SanitizeModelMessagesOptions,
  type SanitizeModelMessagesResult,
  sanitizeModelMessages,
} from "./sanitize-model-messages.js";
export { toNeutralMessages } from "./to-neutral-messages.js";
