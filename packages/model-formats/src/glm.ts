/**
 * `@toolcall/model-formats/glm`: GLM-4.5 / 4.6 (`glm45`) and GLM-4.7 / GLM-5 (`glm47`).
 *
 * @example
 * import { glm47 } from "@toolcall/model-formats/glm";
 * glm47.parse(modelText, { tools, startInReasoning: true }).toolCalls;
 */
export {
  encodeGlm45,
  encodeGlm47,
  GLM_CALL_CLOSE,
  GLM_CALL_OPEN,
  GLM_KEY_CLOSE,
  GLM_KEY_OPEN,
  GLM_VALUE_CLOSE,
  GLM_VALUE_OPEN,
  glm45,
  glm47,
} from "./families/glm.js";
