/**
 * `@toolcall/model-formats/hunyuan`: Tencent Hunyuan-A13B (`hunyuan`).
 *
 * @example
 * import { hunyuan } from "@toolcall/model-formats/hunyuan";
 * hunyuan.parse(modelText).toolCalls;
 */
export {
  encodeHunyuan,
  HUNYUAN_ANSWER_PREFIX,
  hunyuan,
  TOOL_CALLS_CLOSE,
  TOOL_CALLS_OPEN,
} from "./families/tool-calls-list.js";
