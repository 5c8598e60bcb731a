/**
 * `@toolcall/model-formats/exaone4`: LG EXAONE 4.0 (`exaone4`).
 *
 * @example
 * import { exaone4 } from "@toolcall/model-formats/exaone4";
 * exaone4.parse(modelText).toolCalls;
 */
export { encodeExaone4, exaone4 } from "./families/exaone4.js";
