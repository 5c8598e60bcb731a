import { contextMeter, type RepairRule } from "./repair-rule.js";

const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const PIPE = 0x7c;
const GREATER = 0x3e;

/**
 * Length of the leaked marker starting at `start` (which holds `<|`): `<|`, then an optional escaping backslash,
 * an optional quote, and an optional `|` with an optional `>`. Covers the full token as it appears inside JSON text
 * (`<|\"|>`), the shapes vLLM leaks (`<|\"|`, `<|\"`, `<|"`, `<|`) and the partial ones (`<|\`).
 */
function markerLength(text: string, start: number): number {
  let end = start + 2;
  if (text.charCodeAt(end) === BACKSLASH) end++;
  if (text.charCodeAt(end) === QUOTE) end++;
  if (text.charCodeAt(end) === PIPE) {
    end++;
    if (text.charCodeAt(end) === GREATER) end++;
  }
  return end - start;
}

/**
 * R6/R7 `gemma-quote-markers`: Gemma 4's `<|"|>` quote token leaked into JSON arguments (vLLM serving Gemma 4), in
 * its full and partial forms. A repair of argument text, so core's, as `family-markup` is; not among `coreRepairs`
 * (it is asked for by name: it would read a `<|` in any other model's broken text as a quote). Each marker, with a
 * JSON quote right before or after it, becomes one `"`: `"<|\"|"2023-09-18<|\"` gives `"2023-09-18"`. Like every
 * repair it runs only on text that fails strict JSON, and its result counts only when it parses to an object: valid
 * text that holds `<|"|>` inside a value is never touched.
 *
 * @example
 * import { decodeArguments } from "@toolcall/core";
 * import { gemmaQuoteMarkers } from "@toolcall/core/kit";
 * decodeArguments('{"date": "<|\\"|"2023-09-18<|\\"}', { repairs: [gemmaQuoteMarkers] }).arguments;
 * // { date: "2023-09-18" }
 */
export const gemmaQuoteMarkers: RepairRule = {
  specificationVersion: "1",
  id: "gemma-quote-markers",
  description: 'Gemma 4 <|"|> quote markers leaked into JSON, full and partial forms',
  repair(text, context) {
    if (typeof text !== "string") return undefined;
    const meter = contextMeter(context);
    let index = text.indexOf("<|");
    if (index === -1) {
      meter?.charge(text.length);
      return undefined;
    }
    // Built by concatenation: about half the time of a list of pieces joined at the end (no list to grow and
    // collect), which matters on a megabyte of markers.
    let repaired = "";
    let last = 0;
    while (index !== -1) {
      let start = index;
      let end = index + markerLength(text, index);
      if (start > last && text.charCodeAt(start - 1) === QUOTE && text.charCodeAt(start - 2) !== BACKSLASH)
        start--;
      if (text.charCodeAt(end) === QUOTE) end++;
      repaired += `${text.slice(last, start)}"`;
      last = end;
      index = text.indexOf("<|", end);
    }
    repaired += text.slice(last);
    // The search covers the text once, the pieces copy it once, and the join builds the result.
    meter?.charge(2 * text.length + repaired.length);
    return repaired;
  },
};
