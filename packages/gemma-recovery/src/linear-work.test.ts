import { coreRepairs, createJsonrepairRepair, decodeArguments } from "@toolcall/core";
import { WORK_UNITS_PER_CHAR } from "@toolcall/core/kit";
import fc from "fast-check";
import { jsonrepair } from "jsonrepair";
import { describe, expect, it } from "vitest";
import { countWork, expectLinearWork, fuzzRuns, repeatedUnit } from "../../core/test/linear-work.js";
import { gemmaQuoteMarkers } from "./gemma-quote-markers.js";
import { GemmaToolCallStream } from "./gemma-tool-call-stream.js";
import { parseGemmaToolCalls } from "./parse-gemma-tool-calls.js";

// Linear work, counted: the repair and the parsers charge what they scan to a work meter, and on adversarial text
// from 4 KiB to 1 MiB the count stays under a fixed number of units per character. Speed lives in the bench.
const Q = '<|"|>';

/** The most units the parsers may cost per character, whole or streamed. */
const PARSER_UNITS_PER_CHAR = 32;

const MARKER_TEXTS: Record<string, (n: number) => string> = {
  "leaked markers": (n) => `{"a": "${'<|\\"|"x<|\\"'.repeat(n / 10)}`,
  "bare openers": (n) => "<|".repeat(n / 2),
  "quotes and markers": (n) => `{"a": ${'"<|'.repeat(n / 3)}`,
  "quote tokens after a bracket": (n) => `[${Q.repeat(n / 5)}`,
  "quote tokens in a string": (n) => `{"a":"${Q.repeat(n / 5)}"}`,
  "quote tokens after a colon": (n) => `{"a":${Q.repeat(n / 5)}`,
};

/** The repeated openers and half-calls of the issue, in the order they were sent. */
function openers(n: number): string {
  const units = ["<|tool_call>", "call:f{", "<tool_call>"];
  let text = "";
  for (let i = 0; text.length < n; i++) text += units[i % units.length];
  return text;
}

const CONTENT_TEXTS: Record<string, (n: number) => string> = {
  "openers and half-calls": openers,
  "interior quote tokens": (n) => `<|tool_call>call:f{a:${Q}${`${Q},`.repeat(n / 6)}`,
  "tokens followed by keys far away": (n) =>
    `<|tool_call>call:f{a:${Q}${`${Q},${"k".repeat(200)}`.repeat(n / 206)}`,
  "many false closes": (n) => `<|tool_call>call:f{a:${Q}${"<tool_call|>".repeat(n / 12)}`,
  "calls whose strings never close": (n) => `<|tool_call>call:f{a:${Q}x<tool_call|>`.repeat(n / 30),
  "calls whose JSON strings never close": (n) => `<|tool_call>call:f{a:"x<tool_call|>`.repeat(n / 26),
  "open tokens": (n) => "<|tool_call>".repeat(n / 12),
  channels: (n) => "<|channel>".repeat(n / 10),
  "closed channels": (n) => "<|channel>x<channel|>".repeat(n / 21),
  "deep nesting": (n) => `<|tool_call>call:f{a:${"[".repeat(n)}`,
  "bare pairs": (n) => `<|tool_call>call:f{${"a:b,".repeat(n / 4)}`,
  "white space after a quote token": (n) => `<|tool_call>call:f{a:${Q}x${Q}${" ".repeat(n)}`,
  "a name that never ends": (n) => `<|tool_call>call:${"f".repeat(n)}`,
  // Found by the fuzz test below: each call's bare value ran to the end of the text, or to one far delimiter.
  "calls whose bare values never end": (n) => '<|tool_call>call:f{":<tool_call|><|'.repeat(n / 34),
  "calls whose bare values end at the end": (n) => `${"<|tool_call>call:f{a:b<tool_call|>".repeat(n / 34)}}`,
  "good calls": (n) => `<|tool_call>call:f{a:${Q}x${Q},n:1}<tool_call|>text `.repeat(n / 42),
};

function stream(text: string, size: number, meter: import("@toolcall/core/kit").WorkMeter) {
  const parser = new GemmaToolCallStream({ meter });
  for (let i = 0; i < text.length; i += size) parser.push(text.slice(i, i + size));
  return parser.end();
}

describe("linear work on adversarial input up to 1 MiB", () => {
  for (const [name, make] of Object.entries(MARKER_TEXTS)) {
    it(`gemmaQuoteMarkers, and decode with every repair: ${name}`, () => {
      expectLinearWork({
        label: name,
        make,
        run: (text, meter) => gemmaQuoteMarkers.repair(text, { meter }),
        unitsPerChar: 8,
      });
      const repairs = [gemmaQuoteMarkers, ...coreRepairs, createJsonrepairRepair(jsonrepair)];
      expectLinearWork({
        label: `decode: ${name}`,
        make,
        run: (text, meter) => decodeArguments(text, { repairs, meter }),
        unitsPerChar: WORK_UNITS_PER_CHAR,
      });
    });
  }
  for (const [name, make] of Object.entries(CONTENT_TEXTS)) {
    it(`parseGemmaToolCalls, and the stream in 64- and 7-character deltas: ${name}`, () => {
      expectLinearWork({
        label: `whole: ${name}`,
        make,
        run: (text, meter) => parseGemmaToolCalls(text, { meter }),
        unitsPerChar: PARSER_UNITS_PER_CHAR,
      });
      expectLinearWork({
        label: `64: ${name}`,
        make,
        run: (text, meter) => stream(text, 64, meter),
        unitsPerChar: PARSER_UNITS_PER_CHAR,
      });
      expectLinearWork({
        label: `7: ${name}`,
        make,
        run: (text, meter) => stream(text, 7, meter),
        unitsPerChar: PARSER_UNITS_PER_CHAR,
        sizes: [4096, 65_536, 262_144],
      });
    });
  }
  it("the 1 MiB of quote tokens the issue sent through decode ends invalid, jsonrepair left out for its size", () => {
    const text = `[${Q.repeat((1024 * 1024) / 5)}`;
    const result = decodeArguments(text, {
      repairs: [gemmaQuoteMarkers, ...coreRepairs, createJsonrepairRepair(jsonrepair)],
    });
    expect(result.status).toBe("invalid");
    expect(result.budget).toEqual(["jsonrepair"]);
  });
});

describe("fuzzed adversarial text: any unit of Gemma's tokens, repeated", () => {
  const tokens = [
    "<|tool_call>",
    "<tool_call|>",
    "<|channel>",
    "<channel|>",
    "call:f{",
    Q,
    "<|",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    '"',
    "a",
    " ",
  ];
  it("the whole parser and the stream charge linear work", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...tokens), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 64 }),
        (unit, size) => {
          const text = repeatedUnit(unit.join(""), 64 * 1024);
          const whole = countWork((meter) => parseGemmaToolCalls(text, { meter }));
          const streamed = countWork((meter) => stream(text, size, meter));
          expect(whole).toBeLessThanOrEqual(PARSER_UNITS_PER_CHAR * text.length + 16_384);
          expect(streamed).toBeLessThanOrEqual(PARSER_UNITS_PER_CHAR * text.length + 16_384);
          const repaired = countWork((meter) => gemmaQuoteMarkers.repair(text, { meter }));
          expect(repaired).toBeLessThanOrEqual(8 * text.length + 16_384);
        },
      ),
      fuzzRuns(60),
    );
  });
});
