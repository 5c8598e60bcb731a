/**
 * `@toolcall/model-formats/command-r7b`: Cohere Command R7B (`commandR7b`).
 *
 * @example
 * import { commandR7b } from "@toolcall/model-formats/command-r7b";
 * commandR7b.parse(modelText).toolCalls;
 */
export {
  COMMAND_END_ACTION,
  COMMAND_RESPONSE,
  COMMAND_START_ACTION,
  COMMAND_THINKING,
  commandR7b,
  encodeCommandR7b,
} from "./families/command-r7b.js";
