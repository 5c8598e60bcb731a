/**
 * `@toolcall/model-formats/nemotron-nano-v2`: NVIDIA Nemotron Nano v2 (`nemotronNanoV2`).
 *
 * @example
 * import { nemotronNanoV2 } from "@toolcall/model-formats/nemotron-nano-v2";
 * nemotronNanoV2.parse(modelText, { startInReasoning: true }).toolCalls;
 */
export {
  encodeNemotronNanoV2,
  nemotronNanoV2,
  TOOLCALL_CLOSE,
  TOOLCALL_OPEN,
} from "./families/nemotron-nano-v2.js";
