/**
 * `@toolcall/model-formats/jamba`: AI21 Jamba (`jamba`).
 *
 * @example
 * import { jamba } from "@toolcall/model-formats/jamba";
 * jamba.parse(modelText).toolCalls;
 */
export { encodeJamba, jamba, TOOL_CALLS_CLOSE, TOOL_CALLS_OPEN } from "./families/tool-calls-list.js";
