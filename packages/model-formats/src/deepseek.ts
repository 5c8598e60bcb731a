/**
 * `@toolcall/model-formats/deepseek`: DeepSeek V3 / R1 (`deepseekV3`), V3.1 (`deepseekV31`), V3.2 DSML (`deepseekV32`).
 *
 * @example
 * import { deepseekV31 } from "@toolcall/model-formats/deepseek";
 * deepseekV31.parse(modelText).toolCalls;
 */
export {
  DEEPSEEK_CALL_BEGIN,
  DEEPSEEK_CALL_END,
  DEEPSEEK_CALLS_BEGIN,
  DEEPSEEK_CALLS_BEGIN_VARIANTS,
  DEEPSEEK_CALLS_END,
  DEEPSEEK_SEP,
  deepseekV3,
  deepseekV31,
  encodeDeepSeekV3,
  encodeDeepSeekV31,
} from "./families/deepseek.js";
export {
  DSML_CALLS_CLOSE,
  DSML_CALLS_OPEN,
  DSML_INVOKE_CLOSE,
  DSML_INVOKE_OPEN,
  DSML_PARAMETER_CLOSE,
  DSML_PARAMETER_OPEN,
  deepseekV32,
  encodeDeepSeekDsml,
} from "./families/deepseek-dsml.js";
