import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTokenFinder } from "./token-finder.js";
import { createWorkMeter } from "./work-budget.js";

describe("createTokenFinder", () => {
  it("answers as indexOf does, for any order of questions", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "b", "<", "/", ">"), maxLength: 60 }),
        fc.array(fc.tuple(fc.constantFrom("a", "</", "b>", "<a", "zz"), fc.integer({ min: -3, max: 70 }))),
        (text, questions) => {
          const finder = createTokenFinder({ text });
          for (const [token, from] of questions)
            expect(finder.indexOf(token, from)).toBe(text.indexOf(token, Math.max(0, from)));
        },
      ),
    );
  });

  it("scans each character once per token when the questions move forward", () => {
    const n = 100_000;
    const text = `${"x".repeat(n)}</p>`;
    const meter = createWorkMeter();
    const finder = createTokenFinder({ text, meter });
    // A scanner asking at every position where the next closing tag and the next absent tag are.
    for (let i = 0; i < n; i += 10) {
      finder.indexOf("</p>", i);
      finder.indexOf("</q>", i);
    }
    expect(meter.steps).toBeLessThanOrEqual(2 * text.length + 2 * (n / 10) + 8);
  });

  it("takes text that is not a string as empty", () => {
    expect(createTokenFinder({ text: 42 as unknown as string }).indexOf("a", 0)).toBe(-1);
  });
});
