import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { repeatedObject } from "./repeated-object.js";

/** The rule as first written (split into every segment, then compare them all): the oracle. */
function oracle(text: string): string | undefined {
  const segments: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (depth === 0) {
      if (c === "{") {
        start = i;
        depth = 1;
      } else if (!(c === " " || c === "\n" || c === "\r" || c === "\t")) return undefined;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) segments.push(text.slice(start, i + 1));
    }
  }
  if (depth !== 0 || segments.length < 2) return undefined;
  return segments.every((s) => s === segments[0]) ? segments[0] : undefined;
}

const pieces = fc.constantFrom(
  "{",
  "}",
  "[",
  "]",
  '"',
  "\\",
  " ",
  "\n",
  "a",
  ":",
  "1",
  ",",
  '{"a":1}',
  '{"b":[1]}',
);

describe("repeated-object", () => {
  it("gives what splitting every segment and comparing them gives, for any text", () => {
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), fc.integer({ min: 1, max: 4 }), (parts, times) => {
        const unit = parts.join("");
        for (const text of [unit, unit.repeat(times), `${unit} ${unit}`, `${unit}{`])
          expect(repeatedObject.repair(text)).toBe(oracle(text));
      }),
      { numRuns: 1000 },
    );
  });

  it("keeps one copy of a repeated object and refuses different ones", () => {
    expect(repeatedObject.repair('{"a":1}{"a":1}\n{"a":1}')).toBe('{"a":1}');
    expect(repeatedObject.repair('{"a":1}{"a":2}')).toBeUndefined();
    expect(repeatedObject.repair('{"a":1}')).toBeUndefined();
    expect(repeatedObject.repair('{"a":1}{"a":1}{')).toBeUndefined();
  });
});
