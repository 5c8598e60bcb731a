export {
  encodeGemmaArguments,
  encodeGemmaToolCall,
  type GemmaEncodeResult,
  safeEncodeGemmaArguments,
} from "./encode-gemma-arguments.js";
export { gemmaQuoteMarkers } from "./gemma-quote-markers.js";
export {
  type GemmaIssue,
  type GemmaParseOptions,
  type GemmaStreamEvent,
  type GemmaToolCall,
  GemmaToolCallStream,
  randomCallId,
} from "./gemma-tool-call-stream.js";
export { encodeGemma4, gemma4 } from "./gemma4-syntax.js";
export {
  type GemmaArgumentsOptions,
  type GemmaArgumentsResult,
  parseGemmaArguments,
} from "./parse-gemma-arguments.js";
export { type GemmaParseResult, parseGemmaToolCalls } from "./parse-gemma-tool-calls.js";
export { CHANNEL_CLOSE, CHANNEL_OPEN, QUOTE_TOKEN, TOOL_CALL_CLOSE, TOOL_CALL_OPEN } from "./tokens.js";
