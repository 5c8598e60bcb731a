/**
 * `@toolcall/model-formats/functionary`: MeetKai Functionary v3.1 (`functionaryV31`) and v3.2 (`functionaryV32`).
 *
 * @example
 * import { functionaryV32 } from "@toolcall/model-formats/functionary";
 * functionaryV32.parse(modelText).toolCalls;
 */
export {
  encodeFunctionaryV31,
  encodeFunctionaryV32,
  FUNCTIONARY_FUNCTION_CLOSE,
  FUNCTIONARY_FUNCTION_OPEN,
  FUNCTIONARY_PYTHON_TAG,
  FUNCTIONARY_RECIPIENT,
  functionaryV31,
  functionaryV32,
} from "./families/functionary.js";
