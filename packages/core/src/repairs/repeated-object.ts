import { contextMeter, type RepairRule } from "./repair-rule.js";

/**
 * The one object `text` repeats (top-level `{…}` segments, whitespace between them, at least two, all the same);
 * `undefined` otherwise. Each segment is compared with the first as soon as it closes, so no list of segments is
 * built (a megabyte of small objects made one, and the collector's work grew faster than the text).
 */
function repeatedSegment(text: string): string | undefined {
  let first: string | undefined;
  let count = 0;
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (depth === 0) {
      if (c === 0x7b) {
        start = i;
        depth = 1;
      } else if (!(c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)) return undefined;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth !== 0) continue;
      count++;
      if (first === undefined) first = text.slice(start, i + 1);
      else if (i + 1 - start !== first.length || !text.startsWith(first, start)) return undefined;
    }
  }
  return depth === 0 && count >= 2 ? first : undefined;
}

/**
 * R6 `repeated-object`: the same object concatenated N times (`{…}{…}`), as streams that re-send a finished call
 * produce. Different objects are refused: which one the model meant is not ours to guess.
 *
 * @example
 * decodeArguments("{\"a\":1}{\"a\":1}", { repairs: [repeatedObject] }).arguments; // { a: 1 }
 */
export const repeatedObject: RepairRule = {
  specificationVersion: "1",
  id: "repeated-object",
  description: "the same object concatenated several times",
  repair(text, context) {
    if (typeof text !== "string") return undefined;
    const meter = contextMeter(context);
    // The scan, and the comparisons against the first segment.
    meter?.charge(3 * text.length);
    return repeatedSegment(text);
  },
};
