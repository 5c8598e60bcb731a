import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeArguments } from "./decode-arguments.js";
import { nestedDeeper } from "./parse-json.js";

/** The nesting depth of valid JSON text, read character by character (brackets inside strings do not count). */
function textDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") deepest = Math.max(deepest, ++depth);
    else if (c === "}" || c === "]") depth--;
  }
  return deepest;
}

/** Strings made mostly of brackets, so that the text's bracket counts say little about its depth. */
const bracketString = fc.string({ unit: fc.constantFrom("{", "[", "}", "]", "a", '"', "\\"), maxLength: 12 });

/** JSON values whose strings are full of brackets, nested up to 9 deep. */
const bracketyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 9 },
    fc.integer(),
    bracketString,
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(bracketString, tie("value"), { maxKeys: 4 }),
  ),
})).value;

const chain = (depth: number, sibling: string) =>
  `${`[${sibling},`.repeat(depth - 1)}[]${`,${sibling}]`.repeat(depth - 1)}`;

describe("nestedDeeper (the nesting limit of R1 on text JSON.parse read)", () => {
  it("agrees with a character-by-character depth count, whatever the strings hold", () => {
    fc.assert(
      fc.property(
        bracketyJson,
        fc.boolean(),
        fc.integer({ min: 1, max: 8 }),
        fc.nat({ max: 40 }),
        (value, indented, maxDepth, siblings) => {
          // Past 16 entries the brackets are counted instead of the value walked: both ways are checked.
          const wrapped = siblings === 0 ? value : [...Array.from({ length: siblings }, () => [0]), value];
          const text = JSON.stringify(wrapped, null, indented ? 1 : undefined);
          const parsed: unknown = JSON.parse(text);
          expect(nestedDeeper({ text, value: parsed, maxDepth })).toBe(textDepth(text) > maxDepth);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("finds a chain one past the limit wherever it sits among shallow containers full of brackets", () => {
    const shallow = JSON.stringify({ note: "[[[{{{" });
    const many = Array.from({ length: 1500 }, () => shallow).join(",");
    const texts = [
      chain(1001, shallow),
      chain(1000, shallow),
      `[${many},${chain(1000, shallow)}]`,
      `[${chain(1000, shallow)},${many}]`,
      `[${many},${chain(1000, shallow)},${many}]`,
      `[${many},${chain(999, shallow)},${many}]`,
    ];
    const deeper = texts.map((text) => textDepth(text) > 1000);
    expect(deeper).toEqual([true, false, true, true, true, false]);
    for (const text of texts) {
      const value: unknown = JSON.parse(text);
      expect(nestedDeeper({ text, value, maxDepth: 1000 })).toBe(textDepth(text) > 1000);
      // As arguments: one level more, and the status R1 gives it.
      const argumentsText = `{"a":${text}}`;
      expect(decodeArguments(argumentsText).status).toBe(
        textDepth(argumentsText) > 1000 ? "invalid" : "object",
      );
    }
  });

  it("keeps a shallow record list with more brackets than the limit (and more in its strings)", () => {
    const rows = Array.from({ length: 1200 }, (_, id) => ({ id, tags: ["a"], note: "}]{[" }));
    const text = JSON.stringify({ rows });
    expect(decodeArguments(text).status).toBe("object");
    expect(nestedDeeper({ text, value: JSON.parse(text), maxDepth: 1000 })).toBe(false);
    expect(nestedDeeper({ text, value: JSON.parse(text), maxDepth: 2 })).toBe(true);
  });
});
