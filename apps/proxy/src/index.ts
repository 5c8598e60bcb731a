export type {
  ContentCallExtractor,
  ExtractedToolCall,
  ExtractionContext,
  ExtractionEvent,
  ExtractionIssue,
} from "@toolcall/openai";
export { syntaxContentCalls } from "@toolcall/openai";
export { CONTENT_CALL_EXTRACTORS, gemmaContentCalls, qwenContentCalls } from "./content-call-extractors.js";
export { createProxy, type ToolcallProxy } from "./create-proxy.js";
export {
  type DetectedContentCalls,
  detectContentCalls,
  fetchUpstreamTemplate,
  resolveAutoContentCalls,
} from "./detect-content-calls.js";
export { type ParsedArgs, type ProxyCommand, parseProxyArgs, USAGE } from "./parse-proxy-args.js";
export type { ProxyErrorCode } from "./proxy-error.js";
export type { RouteName } from "./proxy-metrics.js";
export type { LogLevel, LogSink, ProxyOptions } from "./proxy-options.js";
export { REPAIR_NAMES, resolveRepairs } from "./resolve-repairs.js";
