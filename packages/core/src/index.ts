export { CallIds } from "./call-ids.js";
export type {
  ConversationFormat,
  FormatConversation,
  FormatIssue,
  FormatReading,
  FormatWriteResult,
} from "./conversation-format.js";
export {
  type ConvertedValue,
  convertParameterValue,
  type ParameterType,
  parameterType,
} from "./convert-parameter-value.js";
export {
  type DecodeOptions,
  type DecodeResult,
  decodeArguments,
  decodeArgumentsSteps,
  toArgumentsObject,
} from "./decode-arguments.js";
export { isPlainObject } from "./define-property.js";
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
export { ISSUE_SEVERITY, type Issue, type IssueCode, type IssueSeverity } from "./issues.js";
export { JsonNumber } from "./json-number.js";
export { JsonObjectPrefix } from "./json-object-prefix.js";
export {
  type NormalizeAnswerOptions,
  type NormalizedAnswerArguments,
  normalizeAnswerArguments,
  normalizeAnswerArgumentsSteps,
} from "./normalize-answer-arguments.js";
export {
  type ArgumentsPolicy,
  type NormalizeArgumentsOptions,
  type NormalizedArguments,
  normalizeArguments,
  normalizeArgumentsSteps,
} from "./normalize-arguments.js";
export { numbersRoundTrip } from "./numbers-round-trip.js";
export { originOf, withOrigin } from "./origin.js";
export { DEFAULT_MAX_DEPTH, type ParseJsonOptions, type ParseJsonResult, parseJson } from "./parse-json.js";
export { type PrepareOptions, prepareForTemplate } from "./prepare-for-template.js";
export { callIdMapping } from "./providers/call-id-mapping.js";
export type { ProviderChange, ProviderChangeRule } from "./providers/fix-context.js";
export {
  type CheckedAgainst,
  CONSTRAINT_CODES,
  type ConstraintCode,
  type ConstraintParams,
  type ErrorFields,
  type Evidence,
  type IdStyle,
  type MessageIndexing,
  type ProviderConstraint,
  type ProviderIssue,
  type ProviderProfile,
  type ReasoningMove,
} from "./providers/provider-profile.js";
export {
  getProviderProfile,
  listProviderProfiles,
  PROVIDER_IDS,
  type ProviderId,
  type ProviderOption,
  resolveProviderProfile,
} from "./providers/provider-profiles.js";
export { type ProviderFinding, type ProviderVerdict, providerVerdict } from "./providers/provider-verdict.js";
export { pythonFloatRepr } from "./python-float.js";
export { randomCallId } from "./random-call-id.js";
export {
  type RepairedToolName,
  repairToolName,
  TOOL_NAME_NAMESPACES,
  toolNamesOf,
  toolSchemasOf,
} from "./repair-tool-name.js";
export { controlCharacters } from "./repairs/control-characters.js";
export { familyMarkup } from "./repairs/family-markup.js";
export { coreRepairs } from "./repairs/index.js";
export { endsInsideValue } from "./repairs/json-objects.js";
export {
  createJsonrepairRepair,
  JSONREPAIR_MAX_LENGTH,
  type JsonrepairRepairOptions,
} from "./repairs/jsonrepair.js";
export { literalEscapes } from "./repairs/literal-escapes.js";
export { markdownFence } from "./repairs/markdown-fence.js";
export { pythonLiteral } from "./repairs/python-literal.js";
export { orderRepairs, parseRepairNames, REPAIR_ORDER, type RepairNames } from "./repairs/repair-order.js";
export type { RepairContext, RepairRule } from "./repairs/repair-rule.js";
export { repeatedObject } from "./repairs/repeated-object.js";
export { strayText } from "./repairs/stray-text.js";
export { TEMPLATE_SUFFIX_TOKENS, templateSuffix } from "./repairs/template-suffix.js";
export { trailingCommas } from "./repairs/trailing-commas.js";
export { unquotedValues } from "./repairs/unquoted-values.js";
export { runSteps } from "./run-steps.js";
export { sanitizeHistory } from "./sanitize-history.js";
export {
  DEFAULT_SYNTHETIC_RESULT,
  type SanitizeChange,
  type SanitizeOptions,
  type SanitizePolicy,
  type SanitizeResult,
  type SanitizeRule,
} from "./sanitize-options.js";
export {
  type SchemaConversion,
  type SchemaTypedArguments,
  schemaTypedArguments,
} from "./schema-typed-arguments.js";
export {
  compareCodePoints,
  MAX_JSON_TEXT_LENGTH,
  type SerializeOptions,
  type SerializeResult,
  serializeJson,
} from "./serialize-json.js";
export { type SplitMergedOptions, splitMergedArguments } from "./split-merged-arguments.js";
export { StreamedArguments, type StreamedArgumentsEnd } from "./streamed-arguments.js";
export { createTokenFinder, type TokenFinder } from "./token-finder.js";
export {
  type AccumulatedToolCall,
  type AccumulatingToolCall,
  appendArguments,
  type FinishOptions,
  finishReasonAtStreamEnd,
  ToolCallAccumulator,
  type ToolCallDelta,
} from "./tool-call-accumulator.js";
export type {
  EncodableToolCall,
  SyntaxIssue,
  SyntaxParseOptions,
  SyntaxParseResult,
  SyntaxStream,
  SyntaxStreamEvent,
  SyntaxToolCall,
  ToolCallSyntax,
  WorkCounter,
} from "./tool-call-syntax.js";
export {
  type ArgumentsMapping,
  type ChatMessage,
  DECODE_STATUSES,
  type DecodeStatus,
  type FinishReason,
  isDecodedToObject,
  RAW_ARGUMENTS_KEY,
  type ToolCall,
  type ToolCallFunction,
  type ToolDefinition,
} from "./types.js";
export { type ValidateHistoryOptions, validateHistory } from "./validate-history.js";
export { MESSAGE_ROLES, validateMessage } from "./validate-message.js";
export {
  argumentIssues,
  isFunctionCall,
  type ValidateOptions,
  validateToolCall,
} from "./validate-tool-call.js";
export {
  createWorkMeter,
  isWorkMeter,
  linearWorkLimit,
  meteredIndexOf,
  resolveWorkMeter,
  WORK_UNITS_BASE,
  WORK_UNITS_PER_CHAR,
  type WorkMeter,
  type WorkMeterOptions,
} from "./work-budget.js";
