export { type AssignedId, assignVectorIds } from "./assign-ids.js";
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
export { checkVectors, type VectorProblem, vectorsSchema } from "./check-vectors.js";
export { type GrowthOptions, growthExponent } from "./growth-exponent.js";
export {
  type ConformanceDecodeResult,
  type ConformanceImplementation,
  type ConformanceIssue,
  type ConformanceOperation,
  type ConformanceOptions,
  type ConformanceParseResult,
  type ConformanceRenderInput,
  type ConformanceRenderResult,
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
export {
  type ConformanceCase,
  defaultVectorsRoot,
  type LoadVectorsOptions,
  listVectorFiles,
  loadVectors,
} from "./load-vectors.js";
export { type ArgumentsForm, compareMessagesAtMappingLevel } from "./message-view.js";
export { runConformance, runTest } from "./node-run-test.js";
export { DEFAULT_RENDER_CLOCK } from "./render-case.js";
export type {
  ConformanceOutcome,
  ConformanceSummary,
  ConformanceTotals,
  RunTestOptions,
} from "./run-test.js";
export { type SkipList, skipList } from "./skip-list.js";
export { decodeTags, FloatValue } from "./tags.js";
export { resolveRenderInput } from "./template-file.js";
export { type CasesFromVectorsOptions, casesFromVectors } from "./vector-cases.js";
export { suggestVectorId, VECTOR_ID_MAX_LENGTH, VECTOR_ID_PATTERN, vectorIdPrefix } from "./vector-id.js";
