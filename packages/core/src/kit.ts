/**
 * `@toolcall/core/kit`: the parts adapter and parser authors build with (the stream accumulator, the work meter,
 * the syntax and format contracts, step runners, single repairs, provider constraint data). What a user of the
 * library calls is on the main entry, `@toolcall/core`.
 */

export { CallIds } from "./call-ids.js";
export {
  type ContentCall,
  type ContentCallEvent,
  ContentCallReader,
  type ContentCallsOptions,
  type ContentCallsRead,
  foldContentEvents,
  readContentCalls,
  syntaxReadText,
} from "./content-calls.js";
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
export { decodeArgumentsSteps, toArgumentsObject } from "./decode-arguments.js";
export { isPlainObject } from "./define-property.js";
export { ISSUE_SEVERITY } from "./issues.js";
export { JsonObjectPrefix } from "./json-object-prefix.js";
export { normalizeAnswerArgumentsSteps } from "./normalize-answer-arguments.js";
export { normalizeArgumentsSteps } from "./normalize-arguments.js";
export { numbersRoundTrip } from "./numbers-round-trip.js";
export { originOf, withOrigin } from "./origin.js";
export { DEFAULT_MAX_DEPTH } from "./parse-json.js";
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
export { resolveProviderProfile } from "./providers/provider-profiles.js";
export { pythonFloatRepr } from "./python-float.js";
export { randomCallId } from "./random-call-id.js";
export { describeShape } from "./records/describe-shape.js";
export {
  createFormatRegistry,
  type FormatDetection,
  type FormatRegistry,
} from "./records/format-registry.js";
export { guardedReading } from "./records/guarded-reading.js";
export { issuePlace, placeOfPath } from "./records/issue-place.js";
export {
  findingMessage,
  matchFindings,
  type ProviderCheck,
  profilesOf,
  providerFindings,
} from "./records/provider-findings.js";
export { callIdAt, type RecordChange, toRecordChanges } from "./records/record-changes.js";
export type {
  PendingPolicy,
  RecordCheck,
  RecordEngine,
  RecordEngineOptions,
  RecordRepair,
} from "./records/record-engine.js";
export { splitResultIdLists } from "./records/result-id-lists.js";
export { type StoredList, storedListOf, withStoredList } from "./records/stored-list.js";
export {
  type RepairedToolName,
  repairToolName,
  TOOL_NAME_NAMESPACES,
  toolNamesOf,
  toolSchemasOf,
} from "./repair-tool-name.js";
export { controlCharacters } from "./repairs/control-characters.js";
export { familyMarkup, glmMarkupArguments } from "./repairs/family-markup.js";
export { gemmaQuoteMarkers } from "./repairs/gemma-quote-markers.js";
export { endsInsideValue } from "./repairs/json-objects.js";
export { JSONREPAIR_MAX_LENGTH, type JsonrepairRepairOptions } from "./repairs/jsonrepair.js";
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
export { DEFAULT_SYNTHETIC_RESULT, type SanitizeRule } from "./sanitize-options.js";
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
export {
  type StreamCall,
  type StreamCallDelta,
  StreamDecider,
  type StreamDeciderOptions,
  type StreamEvent,
} from "./stream-decider.js";
export {
  type DecideStreamedCallOptions,
  decideStreamedCall,
  type StreamDecision,
} from "./stream-decision.js";
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
export type { ContentCallsOption } from "./toolcall-options.js";
export { TOOLCALL_REPORT_KEY, type ToolcallCallReport, type ToolcallReport } from "./toolcall-report.js";
export { type ArgumentsMapping, DECODE_STATUSES, isDecodedToObject } from "./types.js";
export { MESSAGE_ROLES } from "./validate-message.js";
export { argumentIssues, isFunctionCall } from "./validate-tool-call.js";
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
