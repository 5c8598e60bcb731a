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

// Linear time is a complexity claim, checked two ways. Growth: eight times the input (32 KB to 256 KB, small enough
// that garbage collection stays out of the picture) may take about eight times as long; a quadratic rule takes
// sixty-four, and the bound sits between, loose on purpose. Scale: every rule then runs on 1 MB, where a quadratic
// rule would need on the order of 10^12 steps and never finish. Absolute speed is measured in the benchmark, never
// here.
const ADVERSARIAL: Record<string, (size: number) => string> = {
  "unclosed strings": (n) => `{"a": "${'\\"'.repeat(n / 2)}`,
  "open braces": (n) => "{[".repeat(n / 2),
  "fence lookalikes": (n) => `\`\`\`json\n${"`".repeat(n)}`,
  "suffix tokens": (n) => `{"a":1}${"</tool_call>".repeat(n / 12)}x`,
  commas: (n) => `{"a":[${",".repeat(n)}`,
  "control characters": (n) => `{"a":"${"\n".repeat(n)}`,
  "repeated objects": (n) => '{"a":1}'.repeat(n / 7) + "{",
  "python quotes": (n) => `{'a': '${"\\'".repeat(n / 2)}`,
  "python words": (n) => `{'a': [${"True,".repeat(n / 5)}`,
  whitespace: (n) => `{${" ".repeat(n)}`,
};

describe("every core repair runs in linear time on 1 MB adversarial input", () => {
  for (const rule of coreRepairs) {
    it(rule.id, () => {
      for (const [name, make] of Object.entries(ADVERSARIAL)) {
        const small = make(MB / 8);
        const large = make(MB);
        rule.repair(small); // warm up
        rule.repair(large);
        const ratio =
          minTime(() => rule.repair(large)) /
          Math.max(
            minTime(() => rule.repair(small)),
            0.2,
          );
        expect(ratio, `${rule.id} on ${name}`).toBeLessThan(24);
      }
    });
  }
  it("the whole decode pipeline", () => {
    for (const [name, make] of Object.entries(ADVERSARIAL)) {
      const small = make(MB / 32);
      const large = make(MB / 4);
      decodeArguments(small, { repairs: coreRepairs });
      expect(decodeArguments(make(MB), { repairs: coreRepairs }).status).not.toBe("object");
      const ratio =
        minTime(() => decodeArguments(large, { repairs: coreRepairs }), 3) /
        Math.max(
          minTime(() => decodeArguments(small, { repairs: coreRepairs }), 3),
          0.2,
        );
      expect(ratio, name).toBeLessThan(24);
    }
  });
});
