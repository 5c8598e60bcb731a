import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { changedJson } from "./changed-json.js";

const token = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.constantFrom("1.0", "1e-05", "12345678901234567891", "-0", "2.50"),
);
const document = fc
  .uniqueArray(
    fc.tuple(
      fc.stringMatching(/^[a-z]{1,5}$/),
      fc.oneof(
        token,
        fc.string().map((v) => JSON.stringify(v)),
      ),
    ),
    {
      selector: ([key]) => key,
      maxLength: 6,
    },
  )
  .map((entries) => {
    const fields = entries.map(
      ([k, v]) => `${JSON.stringify(k)}: ${/^-?\d/.test(v) ? v : JSON.stringify(v)}`,
    );
    return `{${[...fields, '"changed": false'].join(", ")}}`;
  });

/** The change the proxy would make: one field set, the others kept as they came. */
const change = (value: unknown) => ({ ...(value as object), changed: true });

describe("changedJson", () => {
  it("writes the changed tree with every number of the original as written", () => {
    fc.assert(
      fc.property(document, (text) => {
        const written = changedJson({ text, changed: change(JSON.parse(text)), redo: change });
        expect(JSON.parse(written)).toEqual(change(JSON.parse(text)));
        // Each number token of the original appears in the output as it was written.
        const numbers = (json: string) => json.match(/(?<=[:,[]\s*)-?\d[\d.eE+-]*/g) ?? [];
        expect(numbers(written)).toEqual(numbers(text));
      }),
      { numRuns: 1000 },
    );
  });

  it("falls back to the plain tree when the lossless reader refuses the text, never throws", () => {
    const deep = `{"a": 1.0, "b": ${"[".repeat(2000)}${"]".repeat(2000)}}`;
    const plain = JSON.parse(deep);
    expect(changedJson({ text: deep, changed: plain, redo: change })).toBe(JSON.stringify(plain));
  });
});
