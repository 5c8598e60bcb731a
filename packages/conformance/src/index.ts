export { checkVectors, type VectorProblem, vectorsSchema } from "./check-vectors.js";
export { type GrowthOptions, growthExponent } from "./growth-exponent.js";
export {
  type ConformanceDecodeResult,
  type ConformanceImplementation,
  type ConformanceIssue,
  type ConformanceOperation,
  type ConformanceOptions,
  type ConformanceRenderInput,
  type ConformanceRenderResult,
  type MaybePromise,
  OPERATIONS,
} from "./implementation.js";
export { jsonEqual } from "./json-equal.js";
export {
  type ConformanceCase,
  defaultVectorsRoot,
  type LoadVectorsOptions,
  listVectorFiles,
  loadVectors,
} from "./load-vectors.js";
export { DEFAULT_RENDER_CLOCK, resolveRenderInput } from "./render-case.js";
export {
  type ConformanceOutcome,
  type ConformanceSummary,
  checkResult,
  runConformance,
  runTest,
} from "./run-test.js";
export { decodeTags, FloatValue } from "./tags.js";
