import { contextMeter, type RepairRule } from "./repair-rule.js";
import { TextBuilder } from "./text-builder.js";

/** The whitespace an escape's letter stands for (`\n`, `\t`, `\r`). */
const WHITESPACE: Record<number, number> = { 110: 0x0a, 116: 0x09, 114: 0x0d };

/**
 * R6 `literal-escapes`: escape text (a backslash and `n`, `t` or `r`) between JSON tokens, where only whitespace can
 * be, read as the whitespace it names: `"view_range": \n[2142, 2250]\n\n}` with a backslash and an `n`. Outside a
 * string a backslash is never JSON, so the reading is unique; inside strings nothing is touched. Any other backslash
 * outside a string is not this shape, and the rule leaves the text alone.
 *
 * @example
 * decodeArguments('{"a": \\n[1, 2]\\n}', { repairs: [literalEscapes] }).arguments; // { a: [1, 2] }
 */
export const literalEscapes: RepairRule = {
  specificationVersion: "1",
  id: "literal-escapes",
  description: "literal \\n, \\t, \\r escape text between JSON tokens",
  repair(text, context) {
    if (typeof text !== "string") return undefined;
    const meter = contextMeter(context);
    let out: TextBuilder | undefined;
    let last = 0;
    let inString = false;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (c === 0x5c) i++;
        else if (c === 0x22) inString = false;
        continue;
      }
      if (c === 0x22) {
        inString = true;
        continue;
      }
      if (c !== 0x5c) continue;
      const space = WHITESPACE[text.charCodeAt(i + 1)];
      if (space === undefined) {
        meter?.charge(i + 1);
        return undefined;
      }
      out ??= new TextBuilder();
      out.pushRange(text, last, i);
      out.pushCode(space);
      last = i + 2;
      i++;
    }
    if (out === undefined) {
      meter?.charge(text.length);
      return undefined;
    }
    out.pushRange(text, last, text.length);
    const repaired = out.toString();
    meter?.charge(text.length + repaired.length);
    return repaired;
  },
};
