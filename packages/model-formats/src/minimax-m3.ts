/**
 * `@toolcall/model-formats/minimax-m3`: MiniMax M3 (`minimaxM3`), whose call tags carry the namespace token
 * `]<]minimax[>[`.
 *
 * @example
 * import { minimaxM3 } from "@toolcall/model-formats/minimax-m3";
 * minimaxM3.parse(modelText, { tools }).toolCalls;
 */
export {
  encodeMinimaxM3,
  MINIMAX_M3_CALLS_CLOSE,
  MINIMAX_M3_CALLS_OPEN,
  MINIMAX_M3_INVOKE_CLOSE,
  MINIMAX_M3_INVOKE_OPEN,
  MINIMAX_M3_NS,
  minimaxM3,
} from "./families/minimax-m3.js";
