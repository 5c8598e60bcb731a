import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJson, parseWithoutStack } from "./parse-json.js";

function failure(parse: () => unknown): Error | undefined {
  try {
    parse();
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

describe("parseWithoutStack", () => {
  it("parses as JSON.parse does, and fails with its message but no stack frames", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.json(), fc.constantFrom('{"a":1}{"a":1}', "{'a': 1}", '{"a": ')),
        (text) => {
          const expected = failure(() => JSON.parse(text));
          const got = failure(() => parseWithoutStack(text));
          if (expected === undefined) {
            expect(got).toBeUndefined();
            expect(parseWithoutStack(text)).toEqual(JSON.parse(text));
            return;
          }
          expect(got).toBeInstanceOf(SyntaxError);
          expect(got?.message).toBe(expected.message);
          expect(got?.stack).not.toMatch(/\n\s+at /);
          expect(parseJson(text)).toEqual({ success: false, error: expected.message });
        },
      ),
    );
  });

  it("leaves Error.stackTraceLimit as it found it, whatever the outcome", () => {
    const before = Error.stackTraceLimit;
    try {
      Error.stackTraceLimit = 7;
      parseWithoutStack("{}");
      expect(Error.stackTraceLimit).toBe(7);
      failure(() => parseWithoutStack("{oops"));
      expect(Error.stackTraceLimit).toBe(7);
    } finally {
      Error.stackTraceLimit = before;
    }
  });
});
