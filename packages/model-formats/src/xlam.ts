/**
 * `@toolcall/model-formats/xlam`: Salesforce xLAM (`xlam`).
 *
 * @example
 * import { xlam } from "@toolcall/model-formats/xlam";
 * xlam.parse(modelText).toolCalls;
 */
export { encodeXlam, xlam } from "./families/xlam.js";
