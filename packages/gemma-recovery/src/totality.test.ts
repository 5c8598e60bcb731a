import { createWorkMeter } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  anyValue,
  build,
  cyclicObject,
  deeplyNested,
  hugeSparseArray,
  throwingGetter,
} from "../../core/test/hostile-values.js";
import { fuzzRuns } from "../../core/test/linear-work.js";
import {
  encodeGemmaArguments,
  encodeGemmaToolCall,
  gemma4,
  gemmaQuoteMarkers,
  parseGemmaArguments,
  parseGemmaToolCalls,
  safeEncodeGemmaArguments,
} from "./index.js";

// Totality for any JavaScript value: each public function returns its documented result for throwing getters,
// revoked proxies, huge sparse arrays, cycles, deep nesting and exotic objects, and returns it promptly.

const RUNS = fuzzRuns(300);

describe("every public function of gemma-recovery is total over hostile values", () => {
  it("the repair, the parsers and the stream", () => {
    fc.assert(
      fc.property(
        anyValue,
        anyValue,
        fc.array(anyValue, { maxLength: 4 }),
        (textRecipe, optionsRecipe, deltas) => {
          const text = build(textRecipe);
          const options = build(optionsRecipe);
          const repaired = gemmaQuoteMarkers.repair(text as string, { meter: createWorkMeter() });
          expect(repaired === undefined || typeof repaired === "string").toBe(true);
          const parsed = parseGemmaToolCalls(text as string, options as never);
          expect(Array.isArray(parsed.toolCalls) && Array.isArray(parsed.issues)).toBe(true);
          const args = parseGemmaArguments(text as string, build(optionsRecipe) as number);
          expect(typeof args.ok).toBe("boolean");
          const stream = gemma4.createStream(options as never);
          for (const delta of deltas) expect(Array.isArray(stream.push(build(delta) as string))).toBe(true);
          expect(Array.isArray(stream.end())).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it("the encoders", () => {
    fc.assert(
      fc.property(anyValue, anyValue, (mappingRecipe, nameRecipe) => {
        const mapping = build(mappingRecipe);
        const text = encodeGemmaArguments(mapping as never);
        expect(typeof text).toBe("string");
        expect(text.startsWith("{")).toBe(true);
        expect(typeof safeEncodeGemmaArguments(mapping as never).ok).toBe("boolean");
        expect(
          typeof encodeGemmaToolCall({ name: build(nameRecipe) as string, arguments: mapping as never }),
        ).toBe("string");
        expect(typeof encodeGemmaToolCall(build(nameRecipe) as never)).toBe("string");
      }),
      RUNS,
    );
  });
});

describe("the encoder's documented results", () => {
  it("writes the reason as the raw sentinel for a mapping deeper than 1000, a cycle, a throwing getter or a huge array", () => {
    const cases: Array<[unknown, RegExp]> = [
      [deeplyNested(1001), /nesting deeper than 1000/],
      [cyclicObject(), /circular structure/],
      [throwingGetter(), /boom getter throws/],
      [{ a: hugeSparseArray() }, /would exceed/],
    ];
    for (const [mapping, reason] of cases) {
      const text = encodeGemmaArguments(mapping as never);
      expect(text).toMatch(/^\{_raw_arguments:<\|"\|>\[arguments could not be encoded: .*\]<\|"\|>\}$/);
      expect(text).toMatch(reason);
      expect(safeEncodeGemmaArguments(mapping as never)).toEqual({
        ok: false,
        error: expect.stringMatching(reason),
      });
      // What it writes reads back.
      expect(parseGemmaArguments(text).ok).toBe(true);
    }
    expect(encodeGemmaArguments(deeplyNested(999) as never)).toMatch(/^\{a:\{a:/);
  });

  it("a cycle with two ways back is refused at once, not walked 2**1000 ways", () => {
    const branching: Record<string, unknown> = {};
    branching.a = branching;
    branching.b = branching;
    expect(safeEncodeGemmaArguments(branching)).toEqual({ ok: false, error: "circular structure" });
  });
});
