/**
 * `@toolcall/model-formats/phi4-mini`: Microsoft Phi-4-mini's `functools[…]` (`phi4Mini`).
 *
 * @example
 * import { phi4Mini } from "@toolcall/model-formats/phi4-mini";
 * phi4Mini.parse(modelText).toolCalls;
 */
export { encodePhi4Mini, PHI4_FUNCTOOLS, phi4Mini } from "./families/phi4-mini.js";
