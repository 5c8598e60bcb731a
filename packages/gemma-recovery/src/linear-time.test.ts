import { growthExponent } from "@toolcall/conformance";
import { decodeArguments } from "@toolcall/core";
import { describe, expect, it } from "vitest";
import { gemmaQuoteMarkers } from "./gemma-quote-markers.js";
import { parseGemmaToolCalls } from "./parse-gemma-tool-calls.js";

const MB = 1024 * 1024;
const Q = '<|"|>';

// Complexity, not speed: the growth exponent over 16–256 KB (linear 1, quadratic 2), then a 1 MB run that a
// quadratic implementation would never finish. Speed lives in the benchmark.
const MARKER_TEXTS: Record<string, (n: number) => string> = {
  "leaked markers": (n) => `{"a": "${'<|\\"|"x<|\\"'.repeat(n / 10)}`,
  "bare openers": (n) => "<|".repeat(n / 2),
  "quotes and markers": (n) => `{"a": ${'"<|'.repeat(n / 3)}`,
};
const CONTENT_TEXTS: Record<string, (n: number) => string> = {
  "interior quote tokens": (n) => `<|tool_call>call:f{a:${Q}${`${Q},`.repeat(n / 6)}`,
  "tokens followed by keys far away": (n) =>
    `<|tool_call>call:f{a:${Q}${`${Q},${"k".repeat(200)}`.repeat(n / 206)}`,
  "many false closes": (n) => `<|tool_call>call:f{a:${Q}${"<tool_call|>".repeat(n / 12)}`,
  "open tokens": (n) => "<|tool_call>".repeat(n / 12),
  channels: (n) => "<|channel>".repeat(n / 10),
  "deep nesting": (n) => `<|tool_call>call:f{a:${"[".repeat(n)}`,
};

describe("linear time on 1 MB adversarial input", () => {
  for (const [name, make] of Object.entries(MARKER_TEXTS)) {
    it(`gemmaQuoteMarkers: ${name}`, () => {
      expect(
        growthExponent({ make, run: (text) => decodeArguments(text, { repairs: [gemmaQuoteMarkers] }) }),
      ).toBeLessThan(1.6);
      expect(decodeArguments(make(MB), { repairs: [gemmaQuoteMarkers] }).status).toBe("invalid");
    });
  }
  for (const [name, make] of Object.entries(CONTENT_TEXTS)) {
    it(`parseGemmaToolCalls: ${name}`, () => {
      expect(growthExponent({ make, run: (text) => parseGemmaToolCalls(text) })).toBeLessThan(1.6);
      expect(parseGemmaToolCalls(make(MB)).toolCalls).toEqual([]);
    });
  }
});
