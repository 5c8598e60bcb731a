import { contextMeter, type RepairRule } from "./repair-rule.js";

/** Splits text into top-level `{…}` segments; `undefined` when anything else stands between them. */
function splitObjects(text: string): string[] | undefined {
  const segments: string[] = [];
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
      if (depth === 0) segments.push(text.slice(start, i + 1));
    }
  }
  return depth === 0 ? segments : undefined;
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
    // The split (a scan and the copies of the segments), then the comparisons against the first.
    meter?.charge(3 * text.length);
    const segments = splitObjects(text);
    if (segments === undefined || segments.length < 2) return undefined;
    const first = segments[0] as string;
    return segments.every((s) => s === first) ? first : undefined;
  },
};
