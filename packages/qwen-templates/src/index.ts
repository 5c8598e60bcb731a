export {
  type ConvertedValue,
  convertParameterValue,
  type ParameterType,
  parameterType,
} from "./convert-parameter-value.js";
export { probeQwenChatTemplate, type QwenTemplateCapabilities } from "./probe-qwen-chat-template.js";
export {
  encodeQwen3Coder,
  encodeQwen36,
  FUNCTION_CLOSE,
  FUNCTION_OPEN,
  PARAMETER_CLOSE,
  PARAMETER_OPEN,
  qwen3Coder,
  qwen36,
  TOOL_CALL_CLOSE,
  TOOL_CALL_OPEN,
} from "./qwen3-coder-syntax.js";
export {
  QWEN_SPECIAL_TOKENS,
  type RenderQwenChatTemplateOptions,
  renderQwenChatTemplate,
} from "./render-qwen-chat-template.js";
