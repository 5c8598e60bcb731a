/**
 * `@toolcall/model-formats/step3`: StepFun Step3 (`step3`) and Step-3.5 (`step35`).
 *
 * @example
 * import { step3, step35 } from "@toolcall/model-formats/step3";
 * step35.parse(modelText, { tools, startInReasoning: true }).toolCalls;
 */
export {
  encodeStep3,
  STEP3_CALL_BEGIN,
  STEP3_CALL_BEGIN_AS_TEMPLATED,
  STEP3_CALL_END,
  STEP3_CALLS_BEGIN,
  STEP3_CALLS_END,
  STEP3_INVOKE_CLOSE,
  STEP3_INVOKE_OPEN,
  STEP3_PARAMETER_CLOSE,
  STEP3_PARAMETER_OPEN,
  STEP3_SEP,
  step3,
} from "./families/step3.js";
export { encodeStep35, STEP35_THINK, step35 } from "./families/step3p5.js";
