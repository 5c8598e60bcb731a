import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertParameterValue } from "./convert-parameter-value.js";
import { qwen3Coder } from "./qwen3-coder-syntax.js";

const TYPES = ["integer", "number", "object", "array", "boolean", "string", "null"] as const;
const tools = [
  {
    type: "function",
    function: {
      name: "f",
      parameters: {
        type: "object",
        properties: Object.fromEntries(TYPES.map((type) => [type, { type }])),
      },
    },
  },
];

const call = (parameters: Array<[string, string]>) =>
  `<tool_call>\n<function=f>\n${parameters.map(([name, value]) => `<parameter=${name}>\n${value}\n</parameter>\n`).join("")}</function>\n</tool_call>`;

/** Number-ish text as models write it, the kinds that do not fit a double included. */
const numberish = fc.oneof(
  fc.constantFrom(
    "1e400",
    "-1e999",
    "1E+400",
    "2e308",
    "1.7976931348623157e308",
    "5e-324",
    "1e-400",
    "NaN",
    "Infinity",
    "-Infinity",
    "inf",
    "0x10",
    "+5",
    "007",
    "-0",
    "1.0",
    "[1e400]",
    '{"n": 1e400}',
    "{'n': 1e400}",
  ),
  fc.integer().map(String),
  fc.double().map(String),
  fc.tuple(fc.integer({ min: -9, max: 9 }), fc.integer({ min: -999, max: 999 })).map(([m, e]) => `${m}e${e}`),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
);

describe("Qwen number typing", () => {
  it("keeps a float beyond the double range as text for an integer, number or object parameter", () => {
    for (const type of ["integer", "number", "object"]) {
      const result = qwen3Coder.parse(call([[type, "1e400"]]), { tools });
      expect(result.toolCalls[0]?.function.arguments, type).toBe(`{"${type}": "1e400"}`);
      expect(result.issues.map((i) => i.code)).toEqual(["parameter_type_mismatch"]);
    }
    expect(convertParameterValue({ text: "-1e999", schema: { type: "number" } })).toEqual({
      success: false,
      error: { text: "-1e999", reason: "not a finite number (number)" },
    });
  });

  it("keeps a structure holding such a number as text (core's rule)", () => {
    const nested = qwen3Coder.parse(call([["object", '{"n": 1e400, "m": [-1e999]}']]), { tools });
    expect(nested.toolCalls[0]?.function.arguments).toBe('{"object": "{\\"n\\": 1e400, \\"m\\": [-1e999]}"}');
    expect(nested.issues.map((i) => i.code)).toEqual(["parameter_type_mismatch"]);
  });

  it("prints integers as Python does, without BigInt: signs and leading zeros", () => {
    for (const [text, printed] of [
      ["+5", "5"],
      ["007", "7"],
      ["-0", "0"],
      ["-007", "-7"],
      ["000", "0"],
    ]) {
      expect(
        qwen3Coder.parse(call([["integer", text as string]]), { tools }).toolCalls[0]?.function.arguments,
      ).toBe(`{"integer": ${printed}}`);
    }
  });

  it("gives strict JSON arguments for any number-ish value of any type (fuzzed)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...TYPES), numberish), { minLength: 1, maxLength: 4 }),
        (parameters) => {
          const result = qwen3Coder.parse(call(parameters), { tools });
          expect(result.toolCalls).toHaveLength(1);
          const text = result.toolCalls[0]?.function.arguments as string;
          // JSON.parse reads strict JSON only: `{"n": Infinity}` throws.
          expect(() => JSON.parse(text), text).not.toThrow();
          // A typed integer or number reads back as a finite number, or stays the text it was.
          const values = JSON.parse(text) as Record<string, unknown>;
          for (const [name, written] of parameters) {
            const value = values[name];
            if ((name === "integer" || name === "number") && typeof value === "number")
              expect(Number.isFinite(value), `${name}: ${written}`).toBe(true);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});
