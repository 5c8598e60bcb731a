import { describe, expect, it } from "vitest";
import { jsonEqual } from "./json-equal.js";

describe("jsonEqual", () => {
  it("compares as JSON does", async () => {
    expect(jsonEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(jsonEqual(true, 1)).toBe(false);
    expect(jsonEqual(0, -0)).toBe(true);
    expect(jsonEqual(1n, 1)).toBe(true);
    expect(jsonEqual([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(jsonEqual({ a: undefined }, {})).toBe(false);
    expect(jsonEqual({ toJSON: () => 5 }, 5)).toBe(true);
  });
});
