/**
 * `@toolcall/model-formats/seed-oss`: ByteDance Seed-OSS (`seedOss`).
 *
 * @example
 * import { seedOss } from "@toolcall/model-formats/seed-oss";
 * seedOss.parse(modelText, { tools }).toolCalls;
 */
export {
  encodeSeedOss,
  SEED_CALL_CLOSE,
  SEED_CALL_OPEN,
  SEED_FUNCTION_CLOSE,
  SEED_FUNCTION_OPEN,
  SEED_PARAMETER_CLOSE,
  SEED_PARAMETER_OPEN,
  SEED_THINK,
  seedOss,
} from "./families/seed-oss.js";
