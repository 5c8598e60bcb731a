/**
 * `@toolcall/model-formats/apertus`: Swiss AI Apertus (`apertus`).
 *
 * @example
 * import { apertus } from "@toolcall/model-formats/apertus";
 * apertus.parse(modelText).toolCalls;
 */
export {
  APERTUS_INNER,
  APERTUS_TOOLS_PREFIX,
  APERTUS_TOOLS_SUFFIX,
  apertus,
  encodeApertus,
} from "./families/apertus.js";
