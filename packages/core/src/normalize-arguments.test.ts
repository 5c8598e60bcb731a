import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeArguments } from "./normalize-arguments.js";
import { coreRepairs } from "./repairs/index.js";

describe("normalizeArguments", () => {
  it("keeps valid object text byte for byte", () => {
    const text = '{"city":  "Paris", "n": 1.0}';
    expect(normalizeArguments(text)).toMatchObject({ text, changed: false, decoded: { status: "object" } });
  });

  it("writes canonical text for everything that decodes to an object, numbers exact", () => {
    expect(normalizeArguments("").text).toBe("{}");
    expect(normalizeArguments(null).text).toBe("{}");
    expect(normalizeArguments("null").text).toBe("{}");
    expect(normalizeArguments('"{\\"n\\": 12345678901234567890, \\"f\\": 1.0}"').text).toBe(
      '{"n":12345678901234567890,"f":1.0}',
    );
    expect(normalizeArguments({ a: 1 }).text).toBe('{"a":1}');
    expect(normalizeArguments("{'a': True}", { repairs: coreRepairs })).toMatchObject({
      text: '{"a":true}',
      changed: true,
      decoded: { status: "repaired", repairs: ["python-literal"] },
    });
  });

  it("follows the policy for what is not an object", () => {
    expect(normalizeArguments("{oops").text).toBe('{"_raw_arguments":"{oops"}');
    expect(normalizeArguments("[1]", { policy: "empty" }).text).toBe("{}");
    expect(normalizeArguments("{oops", { policy: "keep" })).toMatchObject({ text: "{oops", changed: false });
    expect(normalizeArguments('{"a": ', { finishReason: "length", repairs: coreRepairs })).toMatchObject({
      text: '{"_raw_arguments":"{\\"a\\": "}',
      decoded: { status: "truncated" },
    });
  });

  it("always gives JSON object text unless told to keep, and never throws", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.json(), fc.anything()),
        fc.constantFrom("preserve" as const, "empty" as const),
        (value, policy) => {
          const { text } = normalizeArguments(value, { policy, repairs: coreRepairs });
          const parsed = JSON.parse(text as string);
          expect(typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)).toBe(true);
        },
      ),
    );
  });
});
