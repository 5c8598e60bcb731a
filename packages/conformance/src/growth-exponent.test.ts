import { describe, expect, it } from "vitest";
import { growthExponent } from "./growth-exponent.js";

// The fit is checked on counted work (the `cost` option), so the verdict is the same on a loaded machine; timing
// the same scans is what `pnpm bench` does.
describe("the growth check itself", () => {
  const make = (n: number) => "x".repeat(n);
  /** Characters one indexOf scan from `from` reads in text without the needle. */
  const scanned = (text: string, from: number) => text.length - from;
  const linear = (text: string) => scanned(text, 0);
  const quadratic = (text: string) => {
    let steps = 0;
    for (let i = 0; i < text.length; i += 64) steps += scanned(text, i);
    return steps;
  };

  it("tells a quadratic scan from a linear one", () => {
    const run = (text: string) => text.indexOf("\u0000");
    expect(growthExponent({ make, run, cost: linear })).toBeCloseTo(1, 5);
    expect(growthExponent({ make, run, cost: quadratic })).toBeCloseTo(2, 1);
    expect(growthExponent({ make, run, cost: quadratic })).toBeGreaterThan(1.6);
  });

  it("fits over the sizes given, and a constant cost grows with exponent 0", () => {
    expect(growthExponent({ make, run: () => 0, cost: () => 5, sizes: [10, 100, 1000] })).toBeCloseTo(0, 9);
    expect(
      growthExponent({ make, run: () => 0, cost: (t) => t.length ** 3, sizes: [10, 100, 1000] }),
    ).toBeCloseTo(3, 9);
  });
});
