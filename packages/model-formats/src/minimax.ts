/**
 * `@toolcall/model-formats/minimax`: MiniMax M2 / M2.1 / M2.5 (`minimaxM2`).
 *
 * @example
 * import { minimaxM2 } from "@toolcall/model-formats/minimax";
 * minimaxM2.parse(modelText, { tools, startInReasoning: true }).toolCalls;
 */
export {
  encodeMinimaxM2,
  MINIMAX_CALLS_CLOSE,
  MINIMAX_CALLS_OPEN,
  MINIMAX_INVOKE_CLOSE,
  MINIMAX_INVOKE_OPEN,
  MINIMAX_PARAMETER_CLOSE,
  MINIMAX_PARAMETER_OPEN,
  minimaxM2,
} from "./families/minimax.js";
