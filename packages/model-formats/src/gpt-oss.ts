/**
 * `@toolcall/model-formats/gpt-oss`: gpt-oss harmony (`harmony`), and its special-tokens-stripped form (`harmonyStripped`).
 *
 * @example
 * import { harmony } from "@toolcall/model-formats/gpt-oss";
 * harmony.parse(modelText).toolCalls;
 */
export {
  encodeHarmony,
  HARMONY_CALL,
  HARMONY_CHANNEL,
  HARMONY_CONSTRAIN,
  HARMONY_END,
  HARMONY_MESSAGE,
  HARMONY_RETURN,
  HARMONY_START,
  type HarmonyHeader,
  harmony,
  harmonyHeader,
  harmonyStripped,
  harmonyToolName,
} from "./families/harmony.js";
