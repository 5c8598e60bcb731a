/**
 * `@toolcall/model-formats/mimo`: Xiaomi MiMo (`mimo`).
 *
 * @example
 * import { mimo } from "@toolcall/model-formats/mimo";
 * mimo.parse(modelText, { tools }).toolCalls;
 */
export { encodeMimo, mimo } from "./families/mimo.js";
