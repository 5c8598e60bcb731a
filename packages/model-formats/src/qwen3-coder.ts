/**
 * `@toolcall/model-formats/qwen3-coder`: Qwen3-Coder, Qwen3.5, Qwen3.6 and Nemotron 3 (`qwen3Coder`).
 *
 * @example
 * import { qwen3Coder } from "@toolcall/model-formats/qwen3-coder";
 * qwen3Coder.parse(modelText, { tools, startInReasoning: true }).toolCalls;
 */

export { FUNCTION_CLOSE, FUNCTION_OPEN, PARAMETER_CLOSE, PARAMETER_OPEN } from "./engine/function-call.js";
export { encodeQwen3Coder, QWEN_CALL_CLOSE, QWEN_CALL_OPEN, qwen3Coder } from "./families/qwen3-coder.js";
