/**
 * `@toolcall/openai/exchange`: the exchange repair for servers and other doors (the proxy is one): a request body
 * sanitized, an answer body or an SSE stream repaired byte for byte, the summary a server puts on its answer, and
 * the byte helpers they share. `guardFetch` and `guardOpenAI` on the main entry are built on it.
 */
export { asciiBytes, indexOfBytes, joinBytes, utf8 } from "./exchange/bytes.js";
export { changedJson } from "./exchange/changed-json.js";
export { exchangeApi } from "./exchange/exchange-api.js";
export {
  ContentCallStream,
  type ExtractionReport,
  extractCompletionContentCalls,
  extractCompletionContentCallsSteps,
  extractStreamContentCalls,
} from "./exchange/extract-content-calls.js";
export { type RepairedRequestBody, repairRequestBody } from "./exchange/repair-request-body.js";
export {
  type PrepareAnswer,
  type RepairedResponseBody,
  type RepairResponseBodyArgs,
  repairResponseBody,
  repairResponseBodySteps,
} from "./exchange/repair-response-body.js";
export {
  type ChunkStep,
  createSseRepair,
  repairSseStream,
  type SseFaultVerdict,
  type SseRepair,
  type SseRepairOptions,
  type SseStreamFault,
} from "./exchange/repair-sse-stream.js";
export {
  CONTENT_CALL_REPAIR,
  type ExchangeSummary,
  REPAIRS_HEADER,
  type RepairedCallSummary,
  RepairSummary,
} from "./exchange/repair-summary.js";
