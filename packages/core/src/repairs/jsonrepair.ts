import { endsInsideValue } from "./json-objects.js";
import { contextMeter, type RepairRule } from "./repair-rule.js";

/**
 * The longest text `jsonrepair` is run on by default: 16 KiB. The library's worst case is quadratic (its output is
 * rebuilt on every insertion, and unclosed strings are re-read): on a 2-core machine, 16 KiB of the worst shapes
 * found (`{"a":` then quotes, `[` then `"a` pairs, a run of `"x`, missing commas) takes 17–40 ms, 64 KiB 180–390 ms,
 * 1 MiB 13 s and more. Bounded this way, one call costs at most a fixed amount, so `jsonrepair` over any input stays
 * linear: at most about 2.5 µs per character of the text it is given, however the text is built.
 *
 * @example
 * createJsonrepairRepair(jsonrepair).maxLength === JSONREPAIR_MAX_LENGTH; // true
 */
export const JSONREPAIR_MAX_LENGTH = 16_384;

/** What `createJsonrepairRepair` takes: the longest text the rule runs on. */
export interface JsonrepairRepairOptions {
  /**
   * The longest text the library is run on (default {@link JSONREPAIR_MAX_LENGTH}); longer text skips the rule,
   * and decode lists `jsonrepair` in `budget`. Raising it raises the worst case quadratically.
   */
  maxLength?: number;
}

/**
 * R6 `jsonrepair`: anything the `jsonrepair` library can fix. Aggressive, and off unless named. The library
 * completes cut text, so the rule never runs on text that ends inside a value (a string, an object or a list left
 * open), whatever the finish reason: such a call is cut, and stays unusable. Core has no runtime dependencies: pass the library's function in.
 * The library is not linear, so it runs only on text up to `maxLength` characters (see {@link JSONREPAIR_MAX_LENGTH}).
 *
 * @example
 * import { jsonrepair } from "jsonrepair";
 * const repairs = [...coreRepairs, createJsonrepairRepair(jsonrepair)];
 * decodeArguments('{"a": ' + '"'.repeat(98_304), { repairs }).budget; // ["jsonrepair"]: too long to try
 */
export function createJsonrepairRepair(
  jsonrepair: (text: string) => string,
  options: JsonrepairRepairOptions = {},
): RepairRule {
  const wanted = options?.maxLength;
  const maxLength = typeof wanted === "number" && wanted >= 0 ? wanted : JSONREPAIR_MAX_LENGTH;
  return {
    specificationVersion: "1",
    id: "jsonrepair",
    description: "anything the jsonrepair library can fix",
    maxLength,
    repair(text, context) {
      if (typeof text !== "string") return undefined;
      const meter = contextMeter(context);
      // Decode skips the rule for longer text; a direct call is held to the same bound.
      if (text.length > maxLength) return undefined;
      // Truncation is decided before any completion: text that ends inside a value (a string, an object or a list
      // not closed) is a cut call whatever the finish reason says (servers often say `stop`), and the library
      // would complete it (`{` → `{}`, a cut string closed, a key given `null`).
      meter?.charge(text.length);
      if (endsInsideValue(text)) return undefined;
      try {
        const repaired = jsonrepair(text);
        // The library's own steps cannot be counted; the size bound caps them. Charged: what it read and built.
        meter?.charge(text.length + (typeof repaired === "string" ? repaired.length : 0));
        return typeof repaired !== "string" || repaired === text ? undefined : repaired;
      } catch {
        meter?.charge(text.length);
        return undefined;
      }
    },
  };
}
