import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { unusableCallInput } from "./unusable-call-input.js";

/** What the AI SDK's parse of a tool call's input text gives: a value, or `undefined` when the text is not JSON. */
function sdkRead(text: string): { value: unknown } | undefined {
  if (text.trim() === "") return { value: {} };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value);

describe("unusableCallInput", () => {
  it("the SDK reads either the model's text itself or no object at all, for any text", () => {
    const texts = fc.oneof(
      fc.string(),
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.constantFrom("", "  ", "{bad", "[1, 2]", '{"_raw_arguments": "x"}', ' {"a": 1}', "null"),
    );
    fc.assert(
      fc.property(texts, (text) => {
        const handed = unusableCallInput(text);
        const read = sdkRead(handed);
        if (handed === text) expect(read === undefined || !isObject(read.value)).toBe(true);
        else expect(read?.value).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it("text nested deeper than any limit goes as a string literal of itself; text that is no JSON goes as it is", () => {
    const deep = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    expect(JSON.parse(unusableCallInput(deep))).toBe(deep);
    expect(unusableCallInput("{".repeat(1 << 20))).toBe("{".repeat(1 << 20));
  });
});
