/**
 * `@toolcall/openai/exchange`: the exchange repair for servers and other doors (the proxy is one): a request body
 * sanitized, an answer body or an SSE stream repaired byte for byte, the summary a server puts on its answer, and
 * the byte helpers they share. `guardFetch` and `guardOpenAI` on the main entry are built on it.
 */
export { asciiBytes, indexOfBytes, joinBytes, utf8 } from "./bytes.js";
export { changedJson } from "./changed-json.js";
export { exchangeApi } from "./exchange-api.js";
export {
  CONTENT_CALL_REPAIR,
  type ExchangeSummary,
  REPAIRS_HEADER,
  type RepairedCallSummary,
  RepairSummary,
} from "./exchange-summary.js";
export {
  ContentCallStream,
  type ExtractionReport,
  extractCompletionContentCalls,
  extractCompletionContentCallsSteps,
  extractStreamContentCalls,
} from "./extract-content-calls.js";
export { type RepairedRequestBody, repairRequestBody } from "./repair-request-body.js";
export {
  type PrepareAnswer,
  type RepairedResponseBody,
  type RepairResponseBodyArgs,
  repairResponseBody,
  repairResponseBodySteps,
} from "./repair-response-body.js";
export {
  type ChunkStep,
  createSseRepair,
  repairSseStream,
  type SseFaultVerdict,
  type SseRepair,
  type SseRepairOptions,
  type SseStreamFault,
} from "./repair-sse-stream.js";
