/**
 * `@toolcall/model-formats/granite`: IBM Granite 3.x (`granite`; Granite 4 writes Hermes' syntax: `hermes`).
 *
 * @example
 * import { granite } from "@toolcall/model-formats/granite";
 * granite.parse(modelText).toolCalls;
 */
export { encodeGranite, GRANITE_31_TOOL_CALL, GRANITE_TOOL_CALL, granite } from "./families/granite.js";
