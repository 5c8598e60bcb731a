import { describe, expect, it } from "vitest";
import { growthExponent } from "./growth-exponent.js";

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
    expect(growthExponent({ make, run: linear })).toBeLessThan(1.6);
    expect(growthExponent({ make, run: quadratic })).toBeGreaterThan(1.6);
  });
});
