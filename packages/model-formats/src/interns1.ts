/**
 * `@toolcall/model-formats/interns1`: Intern-S1 and InternLM2 (`internS1`).
 *
 * @example
 * import { internS1 } from "@toolcall/model-formats/interns1";
 * internS1.parse(modelText).toolCalls;
 */
export {
  encodeInternS1,
  INTERN_ACTION_END,
  INTERN_ACTION_START,
  INTERN_PLUGIN,
  internS1,
} from "./families/interns1.js";
