/**
 * `@toolcall/model-formats/hy`: Tencent Hunyuan Hy3 (`hyV3`) and Hy4 (`hyV4`), and `hySyntax` for a checkpoint
 * whose tokens carry another suffix.
 *
 * @example
 * import { hyV3 } from "@toolcall/model-formats/hy";
 * hyV3.parse(modelText, { tools, startInReasoning: true }).toolCalls;
 */
export { type HySyntaxOptions, hySyntax, hyV3, hyV4 } from "./families/hy.js";
export { encodeHyV3, encodeHyV4, HY_SUFFIX, type HyTags, hyTags } from "./families/hy-encode.js";
