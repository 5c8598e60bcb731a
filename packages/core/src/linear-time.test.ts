import { growthExponent } from "@toolcall/conformance";
import { describe, expect, it } from "vitest";
import { decodeArguments } from "./decode-arguments.js";
import { numbersRoundTrip } from "./numbers-round-trip.js";
import { coreRepairs } from "./repairs/index.js";

const MB = 1024 * 1024;

// Linear time is a complexity claim, checked two ways. Growth: the exponent k in time ~ size^k over 16 KB, 64 KB and
// 256 KB (linear is 1, quadratic 2; the bound sits between, loose on purpose). Scale: every rule then runs on 1 MB,
// where a quadratic rule would need on the order of 10^12 steps and never finish. Absolute speed is measured in the
// benchmark, never here.
const ADVERSARIAL: Record<string, (size: number) => string> = {
  "unclosed strings": (n) => `{"a": "${'\\"'.repeat(n / 2)}`,
  "open braces": (n) => "{[".repeat(n / 2),
  "fence lookalikes": (n) => `\`\`\`json\n${"`".repeat(n)}`,
  "suffix tokens": (n) => `{"a":1}${"</tool_call>".repeat(n / 12)}x`,
  commas: (n) => `{"a":[${",".repeat(n)}`,
  "control characters": (n) => `{"a":"${"\n".repeat(n)}`,
  "repeated objects": (n) => `${'{"a":1}'.repeat(n / 7)}{`,
  "python quotes": (n) => `{'a': '${"\\'".repeat(n / 2)}`,
  "python words": (n) => `{'a': [${"True,".repeat(n / 5)}`,
  whitespace: (n) => `{${" ".repeat(n)}`,
};

describe("every core repair runs in linear time on 1 MB adversarial input", () => {
  for (const rule of coreRepairs) {
    it(rule.id, () => {
      for (const [name, make] of Object.entries(ADVERSARIAL)) {
        expect(
          growthExponent({ make, run: (text) => rule.repair(text) }),
          `${rule.id} on ${name}`,
        ).toBeLessThan(1.6);
        rule.repair(make(MB));
      }
    });
  }
  it("the whole decode pipeline", () => {
    for (const [name, make] of Object.entries(ADVERSARIAL)) {
      expect(
        growthExponent({ make, run: (text) => decodeArguments(text, { repairs: coreRepairs }) }),
        name,
      ).toBeLessThan(1.6);
      expect(decodeArguments(make(MB), { repairs: coreRepairs }).status).not.toBe("object");
    }
  });
});

// Inputs where numbersRoundTrip's scan could look at a character many times: long tokens, escaped quotes.
const NUMBER_ADVERSARIAL: Record<string, (size: number) => string> = {
  "a colon, then spaces": (n) => `{"a":${" ".repeat(n)}`,
  colons: (n) => ":".repeat(n),
  "colon, space pairs": (n) => ": ".repeat(n / 2),
  "open brackets and minus signs": (n) => "[-".repeat(n / 2),
  "one long number": (n) => `[1${"e".repeat(n)}]`,
  "many round-tripping numbers": (n) => `[${"1,".repeat(n / 2)}1]`,
  "escaped quotes": (n) => `["${'\\"'.repeat(n / 2)}"]`,
  "backslash runs before quotes": (n) => `["${'\\\\\\\\\\"'.repeat(n / 6)}"]`,
};

describe("numbersRoundTrip runs in linear time on 1 MB adversarial input", () => {
  it("every shape", () => {
    for (const [name, make] of Object.entries(NUMBER_ADVERSARIAL)) {
      expect(growthExponent({ make, run: numbersRoundTrip }), name).toBeLessThan(1.6);
      numbersRoundTrip(make(MB));
    }
  });
});
