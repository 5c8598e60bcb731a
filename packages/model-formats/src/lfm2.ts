/**
 * `@toolcall/model-formats/lfm2`: LiquidAI LFM2 / LFM2.5 (`lfm2`).
 *
 * @example
 * import { lfm2 } from "@toolcall/model-formats/lfm2";
 * lfm2.parse(modelText).toolCalls;
 */
export { encodeLfm2, LFM2_CALL_END, LFM2_CALL_START, lfm2 } from "./families/lfm2.js";
