/**
 * `@toolcall/model-formats/functiongemma`: Google FunctionGemma (`functionGemma`).
 *
 * @example
 * import { functionGemma } from "@toolcall/model-formats/functiongemma";
 * functionGemma.parse(modelText).toolCalls;
 */
export {
  encodeFunctionGemma,
  FUNCTION_GEMMA_CALL_CLOSE,
  FUNCTION_GEMMA_CALL_OPEN,
  FUNCTION_GEMMA_ESCAPE,
  functionGemma,
} from "./families/functiongemma.js";
