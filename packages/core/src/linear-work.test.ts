import fc from "fast-check";
import { jsonrepair } from "jsonrepair";
import { describe, expect, it } from "vitest";
import { countWork, expectLinearWork, fuzzRuns, repeatedUnit } from "../test/linear-work.js";
import { decodeArguments } from "./decode-arguments.js";
import { numbersRoundTrip } from "./numbers-round-trip.js";
import { coreRepairs } from "./repairs/index.js";
import { createJsonrepairRepair } from "./repairs/jsonrepair.js";
import { createWorkMeter, WORK_UNITS_PER_CHAR } from "./work-budget.js";

// Linear work is a complexity claim, checked by counting: every rule charges the characters it examines, copies and
// builds to a work meter, and on adversarial input from 4 KiB to 1 MiB the count stays under a fixed number of units
// per character. A quadratic rule would charge ~10^12 units at 1 MiB (and never finish). Speed lives in the bench.

/** The most units one core rule may cost per character of its input. */
const RULE_UNITS_PER_CHAR = 64;

const ADVERSARIAL: Record<string, (size: number) => string> = {
  "unclosed strings": (n) => `{"a": "${'\\"'.repeat(n / 2)}`,
  "open braces": (n) => "{[".repeat(n / 2),
  "fence lookalikes": (n) => `\`\`\`json\n${"`".repeat(n)}`,
  "suffix tokens": (n) => `{"a":1}${"</tool_call>".repeat(n / 12)}x`,
  "suffix tokens that strip": (n) => `{"a":1}${"</s> ".repeat(n / 5)}`,
  commas: (n) => `{"a":[${",".repeat(n)}`,
  "control characters": (n) => `{"a":"${"\n".repeat(n)}`,
  "control characters that grow sixfold": (n) => `{"a":"${"\u0001".repeat(n)}"}`,
  "repeated objects": (n) => `${'{"a":1}'.repeat(n / 7)}{`,
  "python quotes": (n) => `{'a': '${"\\'".repeat(n / 2)}`,
  "python words": (n) => `{'a': [${"True,".repeat(n / 5)}`,
  "python values": (n) => `{'a': [${"1,".repeat(n / 2)}]}`,
  whitespace: (n) => `{${" ".repeat(n)}`,
  "runs of quotes": (n) => `{"a":${'"'.repeat(n)}`,
  "quotes and letters": (n) => `[${'"a'.repeat(n / 2)}`,
  "empty objects": (n) => `${"{}".repeat(n / 2)}{`,
  "empty objects then stray closers": (n) => `{}{"a":1}${"]".repeat(n)}x`,
  "bare tokens": (n) => `{"a":[${"both,".repeat(n / 5)}1`,
  "one long bare token": (n) => `{"a": ${"x".repeat(n)}`,
  "bare backslashes": (n) => `[${"C:\\x\\\\".repeat(n / 8)}]`,
  "literal escapes": (n) => `{"a": ${"\\n".repeat(n / 2)}1`,
  "value closers in a string": (n) => `{"a": "${"</arg_value>".repeat(n / 12)}`,
  "value closers then key openers": (n) => `{"a": "${"</arg_value> <arg_key>".repeat(n / 22)}`,
  "key openers that never close": (n) => `{"a": "x</arg_value><arg_key>${"k".repeat(n)}`,
  "parameter openers": (n) => "<parameter=".repeat(n / 11),
  "parameters that never close": (n) => `<parameter=a>${"<parameter=b>".repeat(n / 13)}`,
  "key markup": (n) => "<arg_key>a</arg_key>".repeat(n / 20),
};

describe("every core repair charges linear work on adversarial input up to 1 MiB", () => {
  for (const rule of coreRepairs) {
    it(rule.id, () => {
      for (const [name, make] of Object.entries(ADVERSARIAL)) {
        expectLinearWork({
          label: `${rule.id} on ${name}`,
          make,
          run: (text, meter) => rule.repair(text, { meter }),
          unitsPerChar: RULE_UNITS_PER_CHAR,
        });
      }
    });
  }

  it("the whole decode pipeline, every core repair and jsonrepair", () => {
    const repairs = [...coreRepairs, createJsonrepairRepair(jsonrepair)];
    for (const [name, make] of Object.entries(ADVERSARIAL)) {
      expectLinearWork({
        label: `decode on ${name}`,
        make,
        run: (text, meter) => {
          const result = decodeArguments(text, { repairs, meter });
          expect(result.status, name).not.toBe("object");
          // jsonrepair is left out above its size bound, and says so; text cut inside a value (most of these) it
          // is given and refuses, so the budget is then absent.
          if (result.status === "invalid" && result.budget !== undefined)
            expect(result.budget, name).toEqual(["jsonrepair"]);
          if (result.status === "repaired") expect(result.repairs, name).not.toContain("jsonrepair");
        },
        unitsPerChar: WORK_UNITS_PER_CHAR,
      });
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

describe("numbersRoundTrip charges linear work on adversarial input up to 1 MiB", () => {
  for (const [name, make] of Object.entries(NUMBER_ADVERSARIAL)) {
    it(name, () => {
      expectLinearWork({
        label: name,
        make,
        run: (text, meter) => numbersRoundTrip(text, { meter }),
        unitsPerChar: 8,
      });
    });
  }
});

it("a meter counts without a limit, and a limit makes it exhausted", () => {
  const meter = createWorkMeter();
  expect(meter.charge(10)).toBe(true);
  expect(meter.steps).toBe(10);
  const tight = createWorkMeter({ limit: 5 });
  expect(tight.charge(5)).toBe(true);
  expect(tight.charge(1)).toBe(false);
  expect(tight.exhausted).toBe(true);
});

describe("fuzzed adversarial text: any unit of JSON-ish tokens, repeated", () => {
  const tokens = [
    "{",
    "}",
    "[",
    "]",
    '"',
    "'",
    "\\",
    ",",
    ":",
    " ",
    "\n",
    "\u0001",
    "```",
    "</s>",
    "True",
    "1",
    "a",
  ];
  it("decode with every repair charges linear work", () => {
    const repairs = [...coreRepairs, createJsonrepairRepair(jsonrepair)];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...tokens), { minLength: 1, maxLength: 8 }), (unit) => {
        const text = repeatedUnit(unit.join(""), 64 * 1024);
        const steps = countWork((meter) => decodeArguments(text, { repairs, meter }));
        expect(steps).toBeLessThanOrEqual(WORK_UNITS_PER_CHAR * text.length + 16_384);
      }),
      fuzzRuns(60),
    );
  });
});
