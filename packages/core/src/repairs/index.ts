import { controlCharacters } from "./control-characters.js";
import { markdownFence } from "./markdown-fence.js";
import { pythonLiteral } from "./python-literal.js";
import type { RepairRule } from "./repair-rule.js";
import { repeatedObject } from "./repeated-object.js";
import { templateSuffix } from "./template-suffix.js";
import { trailingCommas } from "./trailing-commas.js";

/**
 * Core's repairs (R6), in the order the pipeline applies them: unwrap first, then fix syntax, then collapse
 * repeats. `jsonrepair` is not among them: it is aggressive and comes from {@link createJsonrepairRepair}.
 *
 * @example
 * decodeArguments("```json\n{'a': True,}\n```", { repairs: coreRepairs }).status; // "repaired"
 */
export const coreRepairs: readonly RepairRule[] = [
  markdownFence,
  templateSuffix,
  pythonLiteral,
  controlCharacters,
  trailingCommas,
  repeatedObject,
];
