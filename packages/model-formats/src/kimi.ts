/**
 * `@toolcall/model-formats/kimi`: Kimi K2 / K2 Thinking / K2.5.
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
