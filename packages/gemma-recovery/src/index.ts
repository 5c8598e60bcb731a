/**
 * `@toolcall/gemma-recovery`: Gemma 4's ecosystem package. The syntax is an ordinary family of
 * `@toolcall/model-formats`' engine (`gemma4`: parse, stream, encode), and the quote-marker repair is core's
 * (`gemmaQuoteMarkers`); both are re-exported here beside the encoder, under the names this package has always had.
 *
 * @example
 * import { gemma4, gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
 * gemma4.parse('<|tool_call>call:f{a:1}<tool_call|>').toolCalls[0].function.arguments; // '{"a": 1}'
 */
export { gemmaQuoteMarkers, randomCallId } from "@toolcall/core/kit";
export {
  encodeGemma4,
  encodeGemmaArguments,
  encodeGemmaToolCall,
  GEMMA_CALL_CLOSE as TOOL_CALL_CLOSE,
  GEMMA_CALL_OPEN as TOOL_CALL_OPEN,
  GEMMA_CHANNEL_CLOSE as CHANNEL_CLOSE,
  GEMMA_CHANNEL_OPEN as CHANNEL_OPEN,
  GEMMA_QUOTE as QUOTE_TOKEN,
  type GemmaArgumentsResult,
  type GemmaEncodeResult,
  gemma4,
  parseGemmaArguments,
  safeEncodeGemmaArguments,
} from "@toolcall/model-formats/gemma4";
export { type GemmaParseOptions, parseGemmaToolCalls } from "./parse-gemma-tool-calls.js";
