import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type SpliceWork, spliceStringified } from "./splice-json.js";

/** A repair's way with a record: some parts kept as the same objects, some replaced, one added. */
function edited(original: unknown, choices: readonly number[]): unknown {
  let next = 0;
  const choose = () => choices[next++ % choices.length] ?? 0;
  const visit = (value: unknown, depth: number): unknown => {
    if (typeof value !== "object" || value === null) return choose() % 5 === 0 ? { changed: value } : value;
    const pick = choose() % 4;
    // Kept as it is (the text is copied), or rebuilt around its parts.
    if (pick === 0 || depth > 4) return value;
    if (Array.isArray(value)) {
      const items = value.map((item) => visit(item, depth + 1));
      if (pick === 1) items.splice(choose() % (items.length + 1), 0, { role: "tool", content: "added" });
      return items;
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = visit(item, depth + 1);
    if (pick === 2) out.added = [1, "two", null];
    return out;
  };
  return visit(original, 0);
}

/** Whether a value holds a key that JSON.stringify writes with an escape. */
function awkward(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(awkward);
  return Object.entries(value).some(([key, item]) => JSON.stringify(key) !== `"${key}"` || awkward(item));
}

const isWellFormed = (text: string) => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

describe("spliceStringified", () => {
  it("writes what JSON.stringify writes, whatever is kept or changed", () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 20 }),
        (value, choices) => {
          const text = JSON.stringify(value);
          const original = JSON.parse(text) as unknown;
          const written = edited(original, choices);
          const spliced = spliceStringified({ text, original, written });
          if (typeof original !== "object" || original === null) expect(spliced).toBeUndefined();
          // A key written with an escape, or a lone surrogate, is left to JSON.stringify; anything else is copied.
          else if (awkward(original) || !isWellFormed(text))
            expect([undefined, JSON.stringify(written)]).toContain(spliced);
          else expect(spliced).toBe(JSON.stringify(written));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("copies nothing from text JSON.stringify would write otherwise (and never writes other bytes)", () => {
    const written = (original: Record<string, unknown>) => ({ ...original, extra: true });
    for (const text of [
      '{"a": 1}',
      '{ "a":1}',
      '{"a":"\\/"}',
      '{"a":"\\u00e9"}',
      '{"a":"\\u001F"}',
      '{"a":"\\u000a"}',
      '{"a":"\\ud83d\\ude00"}',
      '{"a":1.0}',
      '{"a":1e2}',
      '{"a":-0}',
      '{"a":10000000000000000000000}',
      '{"a":123456789012345678}',
      '{"a":1,"a":2}',
      '{"a":1,"a":1}',
      '{"b":1,"1":2}',
      '{"a\\"b":1}',
      '{"a":[1 ,2]}',
      '{"a":"\ud800"}',
    ]) {
      const original = JSON.parse(text) as Record<string, unknown>;
      const spliced = spliceStringified({ text, original, written: written(original) });
      expect(spliced, text).toBeUndefined();
    }
    // What JSON.stringify writes the same way is copied: escapes it writes, long integers, `\u001f`.
    for (const text of [
      '{"a":"\\"\\\\\\b\\f\\n\\r\\t"}',
      '{"a":"\\u001f\\u0000"}',
      '{"a":1234567890123456}',
      '{"a":0.962,"b":-3,"c":0}',
      '{"é":"ü","a":[{},[]]}',
    ]) {
      const original = JSON.parse(text) as Record<string, unknown>;
      const spliced = spliceStringified({ text, original, written: written(original) });
      expect(spliced, text).toBe(JSON.stringify(written(original)));
    }
  });

  it("leaves to JSON.stringify what only it knows how to write", () => {
    const text = '{"a":[1]}';
    const original = JSON.parse(text) as { a: number[] };
    expect(
      spliceStringified({ text, original, written: { a: original.a, at: new Date(0) } }),
    ).toBeUndefined();
    expect(spliceStringified({ text, original, written: { a: original.a, n: 10n } })).toBeUndefined();
    const cycle: Record<string, unknown> = { a: original.a };
    cycle.self = cycle;
    expect(spliceStringified({ text, original, written: cycle })).toBeUndefined();
    // A kept part changed in place is no longer what the text says: nothing is copied.
    original.a.push(2);
    expect(spliceStringified({ text, original, written: { a: original.a, b: 1 } })).toBeUndefined();
  });

  it("gives up on nesting deeper than the stack, without throwing", () => {
    const depth = 200_000;
    const text = `{"a":${"[".repeat(depth)}${"]".repeat(depth)},"b":[1]}`;
    const original = JSON.parse(text) as Record<string, unknown>;
    const written = { ...original, c: 1 };
    expect(() => spliceStringified({ text, original, written })).not.toThrow();
    expect(spliceStringified({ text, original, written })).toBeUndefined();
  });

  it("reads a string full of escapes once (work linear in the text)", () => {
    const text = JSON.stringify({ a: "\n".repeat(200_000), b: '"'.repeat(200_000) });
    const original = JSON.parse(text) as Record<string, unknown>;
    const work: SpliceWork = { reads: 0, spliced: 0 };
    const written = { ...original, c: 1 };
    expect(spliceStringified({ text, original, written, work })).toBe(JSON.stringify(written));
    expect(work).toEqual({ reads: 1, spliced: 1 });
  });
});
