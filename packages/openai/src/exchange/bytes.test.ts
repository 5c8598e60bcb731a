import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { indexOfBytes, scanBytes, utf8 } from "./bytes.js";

describe("indexOfBytes", () => {
  it("finds what the portable scan finds, in any range, with any anchor", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "b", "_", "é", "ab_") }),
        fc.string({ unit: fc.constantFrom("a", "b", "_"), minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        (text, word, a, b, anchor) => {
          const haystack = utf8(text);
          const needle = utf8(word);
          const from = a % (haystack.length + 1);
          const to = from + (b % (haystack.length - from + 1));
          const expected =
            text.slice(0, 0) === ""
              ? Buffer.from(haystack.subarray(from, to)).indexOf(Buffer.from(needle))
              : -1;
          const want = expected === -1 ? -1 : expected + from;
          expect(indexOfBytes({ haystack, needle, from, to })).toBe(want);
          expect(scanBytes({ haystack, needle, from, to, anchor: anchor % needle.length })).toBe(want);
        },
      ),
    );
  });
});
