/**
 * `@toolcall/model-formats/command-a`: Cohere Command A (`commandA`), tool use and reasoning.
 *
 * @example
 * import { commandA } from "@toolcall/model-formats/command-a";
 * commandA.parse(modelText).toolCalls;
 */
export { commandA, encodeCommandA } from "./families/command-a.js";
