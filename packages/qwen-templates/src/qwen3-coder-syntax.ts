/**
 * Qwen3-Coder, Qwen3.5, Qwen3.6 and Nemotron 3 as a `ToolCallSyntax`: the family of `@toolcall/model-formats`' engine
 * (one parser for every syntax: reasoning split, arguments streamed pair by pair, the issue codes every family
 * shares), re-exported here beside the Qwen template defaults and probe.
 *
 * @example
 * qwen3Coder.parse("<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>").toolCalls[0].function.arguments;
 * // '{"city": "Paris"}'
 */
export {
  encodeQwen3Coder,
  encodeQwen36,
  FUNCTION_CLOSE,
  FUNCTION_OPEN,
  PARAMETER_CLOSE,
  PARAMETER_OPEN,
  QWEN_CALL_CLOSE as TOOL_CALL_CLOSE,
  QWEN_CALL_OPEN as TOOL_CALL_OPEN,
  qwen3Coder,
  qwen36,
} from "@toolcall/model-formats/qwen3-coder";
