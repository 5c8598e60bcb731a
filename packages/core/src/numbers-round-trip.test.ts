import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { numbersRoundTrip } from "./numbers-round-trip.js";
import { parseJson } from "./parse-json.js";
import { serializeJson } from "./serialize-json.js";

/** Number tokens as JSON writers emit them: some read back through `JSON.parse` unchanged, some do not. */
const numberToken = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.constantFrom(
    "1.0",
    "-0",
    "0.0",
    "1e5",
    "1E5",
    "1e-05",
    "2.50",
    "12345678901234567891",
    "-9007199254740993",
  ),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
);

/** A JSON document with those tokens in it, written compactly the way a lossless writer keeps them. */
const document = fc
  .uniqueArray(
    fc.tuple(
      fc.string().map((key) => `k${key}`),
      fc.oneof(numberToken, fc.array(numberToken, { maxLength: 3 })),
    ),
    {
      maxLength: 5,
      selector: ([key]) => key,
    },
  )
  .map(
    (entries) =>
      `{${entries
        .map(
          ([key, value]) => `${JSON.stringify(key)}:${Array.isArray(value) ? `[${value.join(",")}]` : value}`,
        )
        .join(",")}}`,
  );

describe("numbersRoundTrip", () => {
  it("tells numbers JSON.parse keeps from those it changes", () => {
    expect(numbersRoundTrip('{"a": 1, "b": [0.5, -3], "c": "1.0"}')).toBe(true);
    // Number-like text inside a string (a key or a value) is text, not a number.
    expect(numbersRoundTrip('{"a": 1, "c": "at: 1.0"}')).toBe(true);
    expect(numbersRoundTrip('{"1.0": [2, "x\\"], "b": "q\\": 1.0"}')).toBe(true);
    expect(numbersRoundTrip('{"a": "x\\", "b": 1.0}')).toBe(false);
    // Text that is not JSON takes the safe side: an unterminated string.
    expect(numbersRoundTrip('{"a": "1.0')).toBe(false);
    for (const token of ["1.0", "-0", "1e5", "1E5", "1e-05", "12345678901234567891", "2.50"]) {
      expect(numbersRoundTrip(`{"a": ${token}}`), token).toBe(false);
      expect(numbersRoundTrip(`[1, ${token}]`), token).toBe(false);
      expect(numbersRoundTrip(token), token).toBe(false);
    }
    expect(numbersRoundTrip("")).toBe(true);
    expect(numbersRoundTrip("42")).toBe(true);
  });

  it("is true only when a JSON.parse round trip writes every number as it was", () => {
    fc.assert(
      fc.property(document, (text) => {
        const exact = parseJson(text, { lossless: true });
        expect(exact.success).toBe(true);
        const written = serializeJson(exact.success ? exact.value : null);
        expect(written).toEqual({ success: true, value: text });
        if (numbersRoundTrip(text)) expect(JSON.stringify(JSON.parse(text))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it("reads strings as text: agrees with a JSON.parse round trip whatever the strings hold", () => {
    const text = fc.string({
      unit: fc.constantFrom("a", "1", ".", "0", ":", ",", "[", '"', "\\", " ", "e", "-"),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.tuple(
            text,
            fc.oneof(
              text.map((s) => JSON.stringify(s)),
              numberToken,
            ),
          ),
          {
            maxLength: 5,
            selector: ([key]) => key,
          },
        ),
        (entries) => {
          const json = `{${entries.map(([key, value]) => `${JSON.stringify(key)}: ${value}`).join(", ")}}`;
          const exact = parseJson(json, { lossless: true });
          if (!exact.success) return;
          const compact = serializeJson(exact.value);
          if (!compact.success) return;
          expect(numbersRoundTrip(json)).toBe(JSON.stringify(JSON.parse(json)) === compact.value);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("is true for the numbers JSON.stringify writes", () => {
    const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z]*$/), fc.oneof(number, fc.array(number))),
        (value) => {
          expect(numbersRoundTrip(JSON.stringify(value))).toBe(true);
        },
      ),
    );
  });

  it("reads lone surrogates and text that is not JSON without throwing", () => {
    for (const text of ["\ud800:1.0", "\udfff", "{:", "[-", "-", "::::"])
      expect(typeof numbersRoundTrip(text)).toBe("boolean");
  });
});
