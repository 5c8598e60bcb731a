/**
 * `@toolcall/model-formats/gemma4`: Google Gemma 4 (`gemma4`), its encoders and its argument reader.
 *
 * @example
 * import { gemma4 } from "@toolcall/model-formats/gemma4";
 * gemma4.parse(modelText, { tools }).toolCalls;
 */
export {
  encodeGemma4,
  GEMMA_CHANNEL_CLOSE,
  GEMMA_CHANNEL_OPEN,
  type GemmaArgumentsResult,
  gemma4,
  parseGemmaArguments,
} from "./families/gemma4.js";
export {
  encodeGemmaArguments,
  encodeGemmaToolCall,
  type GemmaEncodeResult,
  safeEncodeGemmaArguments,
} from "./families/gemma4-encode.js";
export { GEMMA_CALL_CLOSE, GEMMA_CALL_OPEN, GEMMA_QUOTE } from "./families/gemma4-values.js";
