/**
 * `@toolcall/model-formats/qwen3-coder`: Qwen3-Coder, Qwen3.5 and Nemotron 3 (`qwen3Coder`); Qwen3.6, Qwen3.8 and
 * Qwen3-Coder-Next, whose templates write non-string values as `tojson` (`qwen36`).
 *
 * @example
 * import { qwen3Coder } from "@toolcall/model-formats/qwen3-coder";
 * qwen3Coder.parse(modelText, { tools, startInReasoning: true }).toolCalls;
 */

export { FUNCTION_CLOSE, FUNCTION_OPEN, PARAMETER_CLOSE, PARAMETER_OPEN } from "./engine/function-call.js";
export {
  encodeQwen3Coder,
  encodeQwen36,
  QWEN_CALL_CLOSE,
  QWEN_CALL_OPEN,
  qwen3Coder,
  qwen36,
} from "./families/qwen3-coder.js";
