export { type DecodeOptions, type DecodeResult, decodeArguments } from "./decode-arguments.js";
export {
  ArgumentsEncodeError,
  type EncodeOptions,
  type EncodeResult,
  encodeArguments,
  encodeArgumentsOrThrow,
  isRawSentinel,
  type RawPolicy,
  safeEncodeArguments,
} from "./encode-arguments.js";
export type { Issue, IssueCode, IssueSeverity } from "./issues.js";
export { JsonNumber } from "./json-number.js";
export {
  type NormalizeAnswerOptions,
  type NormalizedAnswerArguments,
  normalizeAnswerArguments,
} from "./normalize-answer-arguments.js";
export {
  type ArgumentsPolicy,
  type NormalizeArgumentsOptions,
  type NormalizedArguments,
  normalizeArguments,
} from "./normalize-arguments.js";
export { type ParseJsonOptions, type ParseJsonResult, parseJson } from "./parse-json.js";
export { type PrepareOptions, prepareForTemplate } from "./prepare-for-template.js";
export { callIdMapping } from "./providers/call-id-mapping.js";
export {
  getProviderProfile,
  listProviderProfiles,
  PROVIDER_IDS,
  type ProviderId,
  type ProviderOption,
} from "./providers/provider-profiles.js";
export { type ProviderFinding, type ProviderVerdict, providerVerdict } from "./providers/provider-verdict.js";
export { createRecordEngine, type RecordIssue } from "./records/record-engine.js";
export { coreRepairs } from "./repairs/index.js";
export { createJsonrepairRepair } from "./repairs/jsonrepair.js";
export type { Result } from "./result.js";
export { sanitizeHistory } from "./sanitize-history.js";
export type { SanitizeChange, SanitizeOptions, SanitizePolicy, SanitizeResult } from "./sanitize-options.js";
export type { ToolcallOptions } from "./toolcall-options.js";
export {
  type ChatMessage,
  type DecodeStatus,
  type FinishReason,
  RAW_ARGUMENTS_KEY,
  type ToolCall,
  type ToolCallFunction,
  type ToolDefinition,
} from "./types.js";
export { type ValidateHistoryOptions, validateHistory } from "./validate-history.js";
export { validateMessage } from "./validate-message.js";
export { type ValidateOptions, validateToolCall } from "./validate-tool-call.js";
