export { adkEvalSetFormat } from "./adk-eval-set-format.js";
export { adkSessionFormat } from "./adk-session-format.js";
export { geminiCliJsonlFormat } from "./gemini-cli-jsonl-format.js";
export { geminiCliSessionFormat } from "./gemini-cli-session-format.js";
export { geminiContentsFormat } from "./gemini-contents-format.js";
export { sanitizeGeminiContents, validateGeminiContents } from "./gemini-door.js";
export { geminiFormats } from "./gemini-formats.js";
export {
  type MalformedCallCode,
  type MalformedCallResult,
  readMalformedFunctionCall,
} from "./malformed-function-call.js";
