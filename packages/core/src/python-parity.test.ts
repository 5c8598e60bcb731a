import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeArguments } from "./decode-arguments.js";
import { encodeArguments } from "./encode-arguments.js";
import { pythonFloatRepr } from "./python-float.js";

/** Asks the real Python for `json.dumps` of each JSON text (one process for the whole batch). */
function pythonDumps(texts: string[], options: { ensureAscii: boolean; sortKeys: boolean }): string[] {
  const script = `
import json, sys
cases = json.load(sys.stdin)
out = [json.dumps(json.loads(t), ensure_ascii=${options.ensureAscii ? "True" : "False"}, sort_keys=${options.sortKeys ? "True" : "False"}) for t in cases]
sys.stdout.write(json.dumps(out))
`;
  return JSON.parse(
    execFileSync("python3", ["-c", script], { input: JSON.stringify(texts), encoding: "utf8" }),
  ) as string[];
}

function pythonRepr(numbers: number[]): string[] {
  const script = "import json, sys\nprint(json.dumps([repr(float(x)) for x in json.load(sys.stdin)]))";
  return JSON.parse(
    execFileSync("python3", ["-c", script], { input: JSON.stringify(numbers), encoding: "utf8" }),
  ) as string[];
}

describe("byte parity with Python", () => {
  it("pythonFloatRepr prints what repr(float) prints", () => {
    const special = [
      1, 1.5, 0.1, 1e16, 1e15, 123456789012345680, 1e20, 1e-4, 1e-5, 1e-7, 5e-324, 1.7976931348623157e308,
      -2.5, 0.30000000000000004, 1234.5678,
    ];
    const random = fc.sample(
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
      3000,
    );
    const numbers = [...special, ...random];
    expect(numbers.map(pythonFloatRepr)).toEqual(pythonRepr(numbers));
  });

  it("encodes lossless decodes as json.dumps does, for every option", () => {
    const texts = [
      '{"n": 12345678901234567890, "f": 1.0, "e": 1e20, "s": 1E-7, "neg": -0.0, "big": 1e400}',
      '{"text": "café ☕ 😀", "ctl": "a\\u0001b\\n", "del": "\\u007f", "sep": "\\u2028"}',
      '{"b": [1, 2.50, {"z": null, "a": true}], "a": {}, "é": [], "Z": false}',
      ...fc.sample(fc.dictionary(fc.string(), fc.jsonValue()), 300).map((v) => JSON.stringify(v)),
    ];
    for (const ensureAscii of [false, true]) {
      for (const sortKeys of [false, true]) {
        const expected = pythonDumps(texts, { ensureAscii, sortKeys });
        const actual = texts.map((t) =>
          encodeArguments(decodeArguments(t, { lossless: true }).arguments, {
            style: "python",
            ensureAscii,
            sortKeys,
          }),
        );
        // One deliberate difference: a float beyond the double range stays as written (1e400), where Python
        // prints Infinity, which is not JSON. Every other byte is Python's.
        expect(actual[0]).toBe((expected[0] as string).replace("Infinity", "1e400"));
        expect(actual.slice(1)).toEqual(expected.slice(1));
      }
    }
  });

  it("never writes Infinity or NaN: a float beyond the double range keeps its digits, in both styles", () => {
    for (const text of ['{"a": 1e400}', '{"a": -1e999, "b": [2e308]}', '{"a": 1E+400}']) {
      const { arguments: mapping } = decodeArguments(text, { lossless: true });
      for (const style of ["compact", "python"] as const) {
        const encoded = encodeArguments(mapping, { style });
        expect(encoded).not.toMatch(/Infinity|NaN/);
        expect(() => JSON.parse(encoded)).not.toThrow();
      }
    }
  });
});
