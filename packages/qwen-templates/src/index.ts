export {
  type ConvertedValue,
  convertParameterValue,
  type ParameterType,
  parameterType,
} from "./convert-parameter-value.js";
export { parseQwenToolCalls, type QwenParseResult } from "./parse-qwen-tool-calls.js";
export { probeQwenChatTemplate, type QwenTemplateCapabilities } from "./probe-qwen-chat-template.js";
export {
  type QwenIssue,
  type QwenIssueCode,
  type QwenParseOptions,
  type QwenToolCall,
  randomCallId,
} from "./qwen-issue.js";
export { type QwenStreamEvent, QwenToolCallStream } from "./qwen-tool-call-stream.js";
export { encodeQwen3Coder, qwen3Coder } from "./qwen3-coder-syntax.js";
export {
  FUNCTION_CLOSE,
  FUNCTION_OPEN,
  PARAMETER_CLOSE,
  PARAMETER_OPEN,
  TOOL_CALL_CLOSE,
  TOOL_CALL_OPEN,
} from "./read-qwen-block.js";
export {
  QWEN_SPECIAL_TOKENS,
  type RenderQwenChatTemplateOptions,
  renderQwenChatTemplate,
} from "./render-qwen-chat-template.js";
