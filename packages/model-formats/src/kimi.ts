/**
 * `@toolcall/model-formats/kimi`: Kimi K2 / K2 Thinking / K2.5 (`kimiK2`) and Kimi K3 (`kimiK3`).
 *
 * @example
 * import { kimiK2 } from "@toolcall/model-formats/kimi";
 * kimiK2.parse(modelText).toolCalls[0].id; // "functions.get_weather:0"
 */
export {
  encodeKimi,
  KIMI_ARGUMENT_BEGIN,
  KIMI_CALL_BEGIN,
  KIMI_CALL_END,
  KIMI_SECTION_BEGIN,
  KIMI_SECTION_END,
  kimiCallName,
  kimiK2,
} from "./families/kimi.js";
export {
  encodeKimiK3,
  KIMI3_ARGUMENT_CLOSE,
  KIMI3_ARGUMENT_OPEN,
  KIMI3_CALL_CLOSE,
  KIMI3_CALL_OPEN,
  KIMI3_JSON_CLOSE,
  KIMI3_JSON_OPEN,
  KIMI3_MESSAGE_CLOSE,
  KIMI3_RESPONSE_CLOSE,
  KIMI3_RESPONSE_OPEN,
  KIMI3_SEP,
  KIMI3_THINK_CLOSE,
  KIMI3_THINK_OPEN,
  KIMI3_TOOLS_CLOSE,
  KIMI3_TOOLS_OPEN,
  kimiK3,
} from "./families/kimi3.js";
