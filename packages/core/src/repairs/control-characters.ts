import { contextMeter, type RepairRule } from "./repair-rule.js";
import { TextBuilder } from "./text-builder.js";

const SHORT_ESCAPES: Record<number, string> = { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r" };

/**
 * R6 `control-characters`: raw control characters (U+0000–U+001F) inside strings, escaped as JSON requires.
 *
 * @example
 * decodeArguments("{\"code\":\"a\nb\"}", { repairs: [controlCharacters] }).arguments; // { code: "a\nb" }
 */
export const controlCharacters: RepairRule = {
  specificationVersion: "1",
  id: "control-characters",
  description: "raw control characters inside strings",
  repair(text, context) {
    if (typeof text !== "string") return undefined;
    const meter = contextMeter(context);
    let out: TextBuilder | undefined;
    let last = 0;
    let inString = false;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (!inString) {
        if (c === 0x22) inString = true;
        continue;
      }
      if (c === 0x5c) {
        i++;
        continue;
      }
      if (c === 0x22) {
        inString = false;
        continue;
      }
      if (c < 0x20) {
        out ??= new TextBuilder();
        out.pushRange(text, last, i);
        out.pushString(SHORT_ESCAPES[c] ?? `\\u${c.toString(16).padStart(4, "0")}`);
        last = i + 1;
      }
    }
    if (out === undefined) {
      meter?.charge(text.length);
      return undefined;
    }
    out.pushRange(text, last, text.length);
    const repaired = out.toString();
    // One pass over the text, and the text built.
    meter?.charge(text.length + repaired.length);
    return repaired;
  },
};
