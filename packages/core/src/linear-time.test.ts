import { describe, expect, it } from "vitest";
import { decodeArguments } from "./decode-arguments.js";
import { coreRepairs } from "./repairs/index.js";

const MB = 1024 * 1024;

/** The fastest of a few rounds, in milliseconds: noise (GC, the other core) only ever adds time. */
function minTime(run: () => void, rounds = 5): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

// Linear time is a complexity claim, checked two ways. Growth: the fastest of several runs at 16 KB, 64 KB and
// 256 KB gives the exponent k in time ~ size^k (a least-squares fit in log-log space); linear is 1, quadratic 2, and
// the bound sits between, loose on purpose (machines are noisy, garbage collection adds a little). Scale: every
// rule then runs on 1 MB, where a quadratic rule would need on the order of 10^12 steps and never finish. Absolute
// speed is measured in the benchmark, never here.
const SIZES = [MB / 64, MB / 16, MB / 4];

function growthExponent(make: (size: number) => string, run: (text: string) => unknown): number {
  const inputs = SIZES.map(make);
  for (const input of inputs) run(input); // warm up
  const points = inputs.map((input, i) => [
    Math.log(SIZES[i] as number),
    Math.log(
      Math.max(
        minTime(() => run(input), 7),
        0.01,
      ),
    ),
  ]);
  const meanX = points.reduce((sum, [x]) => sum + (x as number), 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + (y as number), 0) / points.length;
  let numerator = 0;
  let denominator = 0;
  for (const [x, y] of points) {
    numerator += ((x as number) - meanX) * ((y as number) - meanY);
    denominator += ((x as number) - meanX) ** 2;
  }
  return numerator / denominator;
}

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
          growthExponent(make, (text) => rule.repair(text)),
          `${rule.id} on ${name}`,
        ).toBeLessThan(1.6);
        rule.repair(make(MB));
      }
    });
  }
  it("the whole decode pipeline", () => {
    for (const [name, make] of Object.entries(ADVERSARIAL)) {
      expect(
        growthExponent(make, (text) => decodeArguments(text, { repairs: coreRepairs })),
        name,
      ).toBeLessThan(1.6);
      expect(decodeArguments(make(MB), { repairs: coreRepairs }).status).not.toBe("object");
    }
  });
});

describe("the growth check itself", () => {
  it("tells a quadratic scan from a linear one", () => {
    const make = (n: number) => "x".repeat(n);
    const linear = (text: string) => text.indexOf("\u0000");
    const quadratic = (text: string) => {
      // The sum keeps the optimiser from dropping the scans.
      let sum = 0;
      for (let i = 0; i < text.length; i += 64) sum += text.indexOf("\u0000", i);
      return sum;
    };
    expect(growthExponent(make, linear)).toBeLessThan(1.6);
    expect(growthExponent(make, quadratic)).toBeGreaterThan(1.6);
  });
});
