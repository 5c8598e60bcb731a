import type { WorkMeter } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countWork, expectLinearWork, fuzzRuns, repeatedUnit } from "../../core/test/linear-work.js";
import { parseQwenToolCalls } from "./parse-qwen-tool-calls.js";
import { QwenToolCallStream } from "./qwen-tool-call-stream.js";

// Linear work, counted: the parser and the stream charge what they scan to a work meter, and on adversarial model
// output from 4 KiB to 1 MiB the count stays under a fixed number of units per character. Speed lives in the bench.

/** The most units the parser may cost per character, whole or streamed. */
const PARSER_UNITS_PER_CHAR = 32;

const tools = [
  {
    type: "function",
    function: {
      name: "f",
      parameters: { type: "object", properties: { a: { type: "integer" }, b: { type: "object" } } },
    },
  },
];

/** The repeated openers and half-calls of the issue, in the order they were sent. */
function openers(n: number): string {
  const units = ["<|tool_call>", "call:f{", "<tool_call>"];
  let text = "";
  for (let i = 0; text.length < n; i++) text += units[i % units.length];
  return text;
}

const TEXTS: Record<string, (n: number) => string> = {
  "openers and half-calls": openers,
  "unclosed parameters": (n) => `<tool_call><function=f>${"<parameter=a>x".repeat(n / 14)}`,
  "unclosed parameters on lines": (n) => `<tool_call><function=f>${"\n<parameter=a>x".repeat(n / 15)}`,
  "bare functions": (n) => "<function=f>".repeat(n / 12),
  "tool call openers": (n) => "<tool_call>".repeat(n / 11),
  "JSON openers": (n) => "<tool_call>{".repeat(n / 12),
  "parameter closers inside a value": (n) =>
    `<tool_call><function=f><parameter=b>${"</parameter>x".repeat(n / 13)}`,
  "call closers inside a value": (n) =>
    `<tool_call><function=f><parameter=b>${"</tool_call>".repeat(n / 12)}`,
  "function closers inside a value": (n) =>
    `<tool_call><function=f><parameter=b>${"</function>x".repeat(n / 12)}`,
  "values that end at the function, then closers": (n) =>
    `${"<function=f><parameter=a>1</function>".repeat(n / 74)}${"</parameter>x".repeat(n / 26)}`,
  "white space after a closer": (n) => `<tool_call><function=f><parameter=a>1</parameter>${" ".repeat(n)}`,
  "a name that never ends": (n) => `<tool_call><function=${"f".repeat(n)}`,
  "good calls": (n) =>
    "Sure.\n<tool_call>\n<function=f>\n<parameter=a>\n7\n</parameter>\n</function>\n</tool_call>\n".repeat(
      n / 80,
    ),
  "huge numbers": (n) =>
    `<tool_call><function=f><parameter=a>${"9".repeat(n)}</parameter></function></tool_call>`,
};

function stream(text: string, size: number, meter: WorkMeter) {
  const parser = new QwenToolCallStream({ tools, meter });
  for (let i = 0; i < text.length; i += size) parser.push(text.slice(i, i + size));
  return parser.end();
}

describe("linear work on adversarial model output up to 1 MiB", () => {
  for (const [name, make] of Object.entries(TEXTS)) {
    it(`parseQwenToolCalls, and the stream in 64- and 7-character deltas: ${name}`, () => {
      expectLinearWork({
        label: `whole: ${name}`,
        make,
        run: (text, meter) => parseQwenToolCalls(text, { tools, meter }),
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
});

describe("fuzzed adversarial text: any unit of Qwen's tags, repeated", () => {
  const tokens = [
    "<tool_call>",
    "</tool_call>",
    "<function=f>",
    "</function>",
    "<parameter=a>",
    "<parameter=b>",
    "</parameter>",
    "\n",
    " ",
    "{",
    "x",
    "<",
    ">",
    "1e400",
  ];
  it("the whole parser and the stream charge linear work", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...tokens), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 64 }),
        (unit, size) => {
          const text = repeatedUnit(unit.join(""), 64 * 1024);
          const whole = countWork((meter) => parseQwenToolCalls(text, { tools, meter }));
          const streamed = countWork((meter) => stream(text, size, meter));
          expect(whole).toBeLessThanOrEqual(PARSER_UNITS_PER_CHAR * text.length + 16_384);
          expect(streamed).toBeLessThanOrEqual(PARSER_UNITS_PER_CHAR * text.length + 16_384);
        },
      ),
      fuzzRuns(60),
    );
  });
});
