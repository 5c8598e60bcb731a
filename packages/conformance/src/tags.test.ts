import { describe, expect, it } from "vitest";
import { decodeTags } from "./tags.js";

describe("decodeTags", () => {
  it("decodes each tag and leaves plain values alone", async () => {
    expect(decodeTags({ $undefined: true })).toBeUndefined();
    expect(decodeTags({ $bigint: "123456789012345678901" })).toBe(123456789012345678901n);
    expect(Number.isNaN(decodeTags({ $number: "NaN" }))).toBe(true);
    expect(Object.is(decodeTags({ $number: "-0" }), -0)).toBe(true);
    expect(decodeTags({ $literal: { $undefined: true } })).toEqual({ $undefined: true });
    expect(decodeTags([{ a: { $number: "Infinity" } }])).toEqual([{ a: Number.POSITIVE_INFINITY }]);
    expect(decodeTags({ a: 1, $b: 2 })).toEqual({ a: 1, $b: 2 });
    expect(decodeTags({ $repeat: { text: "ab", times: 3 } })).toBe("ababab");
    expect(decodeTags({ $concat: ["{", { $repeat: { text: "[", times: 2 } }, "x"] })).toBe("{[[x");
    expect(() => decodeTags({ $repeat: { text: "x", times: 17 * 1024 * 1024 } })).toThrow(/16 MiB/);
    expect(() => decodeTags({ $concat: ["a", 1] })).toThrow(/list of texts/);
  });

  it("keeps __proto__ keys as data", async () => {
    const decoded = decodeTags(JSON.parse('{"__proto__": {"x": 1}}')) as Record<string, unknown>;
    expect(Object.hasOwn(decoded, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
  });

  it("rejects an unknown tag", async () => {
    expect(() => decodeTags({ $oops: 1 })).toThrow(/unknown tag/);
  });
});
