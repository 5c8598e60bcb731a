import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitAt } from "../test/split-at.js";
import { JsonObjectPrefix } from "./json-object-prefix.js";

function read(pieces: readonly string[], maxDepth?: number) {
  const prefix = new JsonObjectPrefix({ maxDepth });
  let valid = true;
  for (const piece of pieces) valid = prefix.push(piece);
  return { valid, complete: prefix.complete };
}

function isObjectText(text: string): boolean {
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

describe("JsonObjectPrefix", () => {
  it("accepts every beginning of an object text and knows when it is whole", () => {
    const text = '{"a": [1, -0.5e+3, true, null, {"b": "x\\n\\u00e9"}], "c": false} ';
    for (let i = 0; i < text.length - 1; i++) {
      expect(read([text.slice(0, i)]), text.slice(0, i)).toEqual({ valid: true, complete: false });
    }
    expect(read([text])).toEqual({ valid: true, complete: true });
  });

  it("refuses what no object text can begin with", () => {
    for (const text of [
      "[1]",
      '"a"',
      "{'a': 1}",
      '{"a": True}',
      '{"a": 1,}',
      '{"a": 01}',
      '{"a": 1.}x',
      '{"a": "\u0001"}',
      '{"a": "\\x"}',
      '{"a": 1}}',
      '{"a": 1} {"a": 1}',
      '{"a": 1}</tool_call>',
      "```json",
      '{"a" 1}',
      '{"a": [1}',
      '{"a": nul}',
    ]) {
      expect(read([text]).valid, text).toBe(false);
    }
  });

  it("agrees with JSON.parse on whole texts, in any split", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.json(),
          fc.string(),
          fc.json().map((json) => `{"k": ${json}}`),
        ),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
        (text, cuts) => {
          const { complete } = read(splitAt(text, cuts));
          expect(complete).toBe(isObjectText(text));
        },
      ),
    );
  });

  it("says every beginning of a JSON object text may continue", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (value, cut) => {
          const text = JSON.stringify(value, null, cut > 0.5 ? 1 : undefined);
          expect(read([text.slice(0, Math.floor(cut * text.length))]).valid).toBe(true);
        },
      ),
    );
  });

  it("stops at the nesting limit instead of growing without bound", () => {
    expect(read(['{"a":'.repeat(5)], 5).valid).toBe(true);
    expect(read(['{"a":'.repeat(6)], 5).valid).toBe(false);
    expect(read(['{"a":['.repeat(200_000)]).valid).toBe(false);
  });
});
