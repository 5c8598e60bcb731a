/**
 * `@toolcall/model-formats/olmo3`: AllenAI OLMo 3 (`olmo3`).
 *
 * @example
 * import { olmo3 } from "@toolcall/model-formats/olmo3";
 * olmo3.parse(modelText, { tools }).toolCalls;
 */
export { encodeOlmo3, OLMO3_CALLS_CLOSE, OLMO3_CALLS_OPEN, olmo3 } from "./families/olmo3.js";
