import { controlCharacters } from "./control-characters.js";
import { familyMarkup } from "./family-markup.js";
import { literalEscapes } from "./literal-escapes.js";
import { markdownFence } from "./markdown-fence.js";
import { pythonLiteral } from "./python-literal.js";
import type { RepairRule } from "./repair-rule.js";
import { repeatedObject } from "./repeated-object.js";
import { strayText } from "./stray-text.js";
import { templateSuffix } from "./template-suffix.js";
import { trailingCommas } from "./trailing-commas.js";
import { unquotedValues } from "./unquoted-values.js";

/**
 * Core's repairs (R6), in the order the pipeline applies them: unwrap first (a fence, a family's markup, template
 * tokens), then fix syntax between tokens (literal escapes), then inside values (Python literals, unquoted values,
 * control characters), then commas, then what is around one object (stray text) and repeats. Every rule only
 * proposes text that decode accepts when it parses to an object, and none completes a cut value. `jsonrepair` is not
 * among them: it is aggressive and comes from {@link createJsonrepairRepair}. docs/decisions.md gives each rule's
 * safety argument.
 *
 * @example
 * decodeArguments("```json\n{'a': True,}\n```", { repairs: coreRepairs }).status; // "repaired"
 */
export const coreRepairs: readonly RepairRule[] = [
  markdownFence,
  familyMarkup,
  templateSuffix,
  literalEscapes,
  pythonLiteral,
  unquotedValues,
  controlCharacters,
  trailingCommas,
  strayText,
  repeatedObject,
];
