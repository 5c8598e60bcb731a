import { contextMeter, type RepairRule, scanOutsideStrings } from "./repair-rule.js";

/**
 * R6 `trailing-commas`: commas before `}` or `]`, outside strings.
 *
 * @example
 * decodeArguments("{\"a\":[1,2,],}", { repairs: [trailingCommas] }).arguments; // { a: [1, 2] }
 */
export const trailingCommas: RepairRule = {
  specificationVersion: "1",
  id: "trailing-commas",
  description: "commas before } or ], outside strings",
  repair(text, context) {
    if (typeof text !== "string") return undefined;
    const meter = contextMeter(context);
    // The scan, then the copy without the dropped commas.
    meter?.charge(2 * text.length);
    const drop: number[] = [];
    let pendingComma = -1;
    scanOutsideStrings(text, (index, c) => {
      if (c === 0x2c) pendingComma = index;
      else if (c === 0x7d || c === 0x5d) {
        if (pendingComma !== -1) drop.push(pendingComma);
        pendingComma = -1;
      } else if (!(c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)) pendingComma = -1;
    });
    if (drop.length === 0) return undefined;
    let out = "";
    let last = 0;
    for (const i of drop) {
      out += text.slice(last, i);
      last = i + 1;
    }
    return out + text.slice(last);
  },
};
