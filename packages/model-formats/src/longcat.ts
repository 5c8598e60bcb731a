/**
 * `@toolcall/model-formats/longcat`: Meituan LongCat-Flash (`longcat`).
 *
 * @example
 * import { longcat } from "@toolcall/model-formats/longcat";
 * longcat.parse(modelText).toolCalls;
 */
export {
  encodeLongcat,
  LONGCAT_CALL_CLOSE,
  LONGCAT_CALL_OPEN,
  LONGCAT_THINK,
  longcat,
} from "./families/longcat.js";
