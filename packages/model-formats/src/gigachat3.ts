/**
 * `@toolcall/model-formats/gigachat3`: Sber GigaChat 3 / 3.1 (`gigaChat3`).
 *
 * @example
 * import { gigaChat3 } from "@toolcall/model-formats/gigachat3";
 * gigaChat3.parse(modelText).toolCalls;
 */
export {
  encodeGigaChat3,
  GIGACHAT_CALL_ROLE,
  GIGACHAT_MESSAGE_SEP,
  GIGACHAT31_CALL_OPEN,
  gigaChat3,
} from "./families/gigachat3.js";
