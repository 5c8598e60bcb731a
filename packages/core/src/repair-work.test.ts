import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeArguments } from "./decode-arguments.js";
import { normalizeAnswerArguments } from "./normalize-answer-arguments.js";
import { coreRepairs } from "./repairs/index.js";
import { repeatsOneObject } from "./starts-no-json-value.js";

/** Calls of `JSON.parse` while `run` runs: each one's text, and whether it threw. */
function parses<T>(run: () => T): { texts: string[]; failed: string[]; value: T } {
  const parse = JSON.parse;
  const texts: string[] = [];
  const failed: string[] = [];
  JSON.parse = (...args: Parameters<typeof JSON.parse>) => {
    texts.push(String(args[0]));
    try {
      return parse(...args);
    } catch (error) {
      failed.push(String(args[0]));
      throw error;
    }
  };
  try {
    return { texts, failed, value: run() };
  } finally {
    JSON.parse = parse;
  }
}

const SCHEMA = { type: "object", properties: { city: { type: "string" } } };

describe("work on arguments that need a repair", () => {
  it("an object sent twice is repaired without the parse that must fail", () => {
    for (const schema of [undefined, SCHEMA]) {
      const { texts, failed, value } = parses(() =>
        decodeArguments('{"city":"Oslo"}{"city":"Oslo"}', { repairs: coreRepairs, schema }),
      );
      expect(value.status).toBe("repaired");
      expect(value.repairs).toEqual(["repeated-object"]);
      expect(failed).toEqual([]);
      expect(texts).toEqual(['{"city":"Oslo"}']);
    }
  });

  it("a repaired call's text is parsed once and written once, numbers as written", () => {
    for (const [raw, expected] of [
      ['```json\n{"city": "Rome", "days": 3}\n```', '{"city":"Rome","days":3}'],
      ['{"city":"Oslo"}{"city":"Oslo"}', '{"city":"Oslo"}'],
      ["{'city': 'Paris', 'metric': True}", '{"city":"Paris","metric":true}'],
    ]) {
      const { texts, failed, value } = parses(() =>
        normalizeAnswerArguments(raw, { repairs: coreRepairs, schema: SCHEMA }),
      );
      expect(value.text).toBe(expected);
      expect(value.usable).toBe(true);
      expect(failed).toEqual([]);
      expect(texts).toHaveLength(1);
    }
  });

  it("a repaired call whose numbers would not read back as written keeps them (the exact read still runs)", () => {
    const answer = normalizeAnswerArguments('```json\n{"seed": 12345678901234567891, "t": 1.0}\n```', {
      repairs: coreRepairs,
    });
    expect(answer.text).toBe('{"seed":12345678901234567891,"t":1.0}');
  });

  it("a repaired call typed by its schema is written as core's serializer writes it", () => {
    const answer = normalizeAnswerArguments('```json\n{"n": "12345678901234567891"}\n```', {
      repairs: coreRepairs,
      schema: { type: "object", properties: { n: { type: "integer" } } },
    });
    expect(answer.text).toBe('{"n":12345678901234567891}');
  });
});

describe("repeatsOneObject", () => {
  it("is true for an object sent twice, false for one object whose strings hold `}{`", () => {
    expect(repeatsOneObject('{"a":1}{"a":1}')).toBe(true);
    expect(repeatsOneObject('{"a":[{"b":"}"}]}{"a":[{"b":"}"}]}')).toBe(true);
    expect(repeatsOneObject('{"a":"}{"}')).toBe(false);
    expect(repeatsOneObject('{"a":"x\\"}{"}')).toBe(false);
    expect(repeatsOneObject("{}{}")).toBe(true);
    expect(repeatsOneObject('{"a":1} {"a":1}')).toBe(false);
  });

  it("never holds for text JSON.parse reads, and always for a JSON object sent twice", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(repeatsOneObject(text)).toBe(false);
        if (typeof value === "object" && value !== null && !Array.isArray(value))
          expect(repeatsOneObject(text + text)).toBe(true);
      }),
    );
  });

  it("holds only for text that fails the strict parse, whatever the text", () => {
    const pieces = fc.constantFrom("{", "}", "[", "]", '"', "\\", ":", ",", "a", "1", " ", "}{");
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 30 }), fc.boolean(), (parts, twice) => {
        const half = `{${parts.join("")}}`;
        const text = twice ? half + half : half;
        if (!repeatsOneObject(text)) return;
        expect(() => JSON.parse(text)).toThrow();
      }),
      { numRuns: 2000 },
    );
  });
});
