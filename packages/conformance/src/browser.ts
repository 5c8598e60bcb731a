// The entry point browsers and edge runtimes resolve (the `browser` condition of "."): the runner, the checks and
// the vocabulary, without what reads or writes files (`loadVectors`, `listVectorFiles`, `defaultVectorsRoot`,
// `checkVectors`, `vectorsSchema`, `assignVectorIds`). There, vectors come in through the bundler
// (`@toolcall/conformance/vectors/r1/statuses.json`) and `casesFromVectors` turns them into cases.
export {
  type CheckConversationFormatOptions,
  type CheckedConversationFormat,
  type ConversationFormatCheck,
  type ConversationFormatIssue,
  type ConversationFormatSample,
  checkConversationFormat,
} from "./check-conversation-format.js";
export {
  checkFormatHostile,
  type FormatHostileCheck,
  type FormatHostileIssue,
  type HostileEngine,
  type HostileFormat,
} from "./check-format-hostile.js";
export {
  type CheckFormatLosslessOptions,
  checkFormatLossless,
  type FormatLosslessCheck,
  type FormatLosslessIssue,
  type LosslessFormat,
  type LosslessRepair,
  WILD_ARGUMENTS,
} from "./check-format-lossless.js";
export { checkParse, streamSplits } from "./check-parse.js";
export { checkResult } from "./check-result.js";
export { type GrowthOptions, growthExponent } from "./growth-exponent.js";
export {
  type ConformanceDecodeResult,
  type ConformanceImplementation,
  type ConformanceIssue,
  type ConformanceOperation,
  type ConformanceOptions,
  type ConformanceParseResult,
  checkImplementation,
  type MaybePromise,
  OPERATIONS,
} from "./implementation.js";
export { jsonEqual } from "./json-equal.js";
export {
  type ConformanceLevel,
  caseLevels,
  type ExpectedKeyLevel,
  type ExpectedLevels,
  expectedLevels,
  LEVELS,
  levelIncludes,
} from "./levels.js";
export { type ArgumentsForm, compareMessagesAtMappingLevel } from "./message-view.js";
export { DEFAULT_RENDER_CLOCK, resolveRenderInput, type TemplateFileReader } from "./render-case.js";
export {
  type ConformanceOutcome,
  type ConformanceSummary,
  type ConformanceTotals,
  type RunTestOptions,
  runConformance,
  runTest,
} from "./run-test.js";
export { type SkipList, skipList } from "./skip-list.js";
export { decodeTags, FloatValue } from "./tags.js";
export { type CasesFromVectorsOptions, type ConformanceCase, casesFromVectors } from "./vector-cases.js";
export { suggestVectorId, VECTOR_ID_MAX_LENGTH, VECTOR_ID_PATTERN, vectorIdPrefix } from "./vector-id.js";
