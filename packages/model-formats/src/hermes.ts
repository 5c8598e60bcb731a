/**
 * `@toolcall/model-formats/hermes`: the Hermes / Qwen2.5 / QwQ / Qwen3 syntax alone.
 *
 * @example
 * import { hermes } from "@toolcall/model-formats/hermes";
 * hermes.parse(modelText, { tools }).toolCalls;
 */
export { encodeHermes, HERMES_CALL_CLOSE, HERMES_CALL_OPEN, hermes } from "./families/hermes.js";
