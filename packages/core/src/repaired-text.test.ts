import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeArguments } from "./decode-arguments.js";
import { encodeArguments } from "./encode-arguments.js";
import { normalizeArguments, normalizeArgumentsSteps } from "./normalize-arguments.js";
import { coreRepairs } from "./repairs/index.js";
import { runSteps } from "./run-steps.js";

/** What a repaired call's text was before the repairs' text was kept: the lossless decode of the original. */
function reference(text: string, schema?: unknown): unknown {
  const decoded = decodeArguments(text, { repairs: coreRepairs });
  if (decoded.status !== "repaired") return undefined;
  return encodeArguments(decodeArguments(text, { repairs: coreRepairs, lossless: true, schema }).arguments);
}

const number = fc.oneof(
  fc.constantFrom("1.0", "12345678901234567891", "-0", "1e400", "0.1", "2.50"),
  fc.integer().map(String),
);
const key = fc.constantFrom("a", "city", "n", "b c");
const pythonish = fc
  .array(fc.tuple(key, fc.oneof(number, fc.constantFrom("'x'", "True", "None", "'it''s'", '"q"'))), {
    minLength: 1,
    maxLength: 4,
  })
  .map((pairs) => `{${pairs.map(([k, v]) => `'${k}': ${v}`).join(", ")}}`);
const jsonish = fc
  .array(fc.tuple(key, number), { minLength: 1, maxLength: 4 })
  .map((pairs) => `{${pairs.map(([k, v]) => `"${k}": ${v}`).join(", ")}}`);
const broken = fc.oneof(
  pythonish,
  jsonish.map((text) => `\`\`\`json\n${text}\n\`\`\``),
  jsonish.map((text) => `${text}${text}`),
  jsonish.map((text) => `${text.slice(0, -1)},}`),
  jsonish.map((text) => `Sure: ${text}`),
);

describe("a repaired call is written from the repairs' own text", () => {
  it("the same text as the lossless decode of the original gives, numbers as written", () => {
    fc.assert(
      fc.property(broken, (text) => {
        const expected = reference(text);
        const got = normalizeArguments(text, { repairs: coreRepairs });
        if (expected !== undefined) expect(got.text).toBe(expected);
        expect(runSteps(normalizeArgumentsSteps(text, { repairs: coreRepairs }))).toEqual(got);
      }),
    );
  });

  it("typed by the tool's schema as the lossless decode types it", () => {
    const schema = { type: "object", properties: { n: { type: "integer" }, a: { type: "string" } } };
    fc.assert(
      fc.property(broken, (text) => {
        const expected = reference(text, schema);
        const got = normalizeArguments(text, { repairs: coreRepairs, schema });
        if (expected !== undefined) expect(got.text).toBe(expected);
      }),
    );
  });

  it("runs the repairs once: the exact re-read parses their text", () => {
    let runs = 0;
    const rule = {
      specificationVersion: "1" as const,
      id: "counting-rule",
      description: "strips a leading X",
      repair(text: string) {
        runs++;
        return text.startsWith("X") ? text.slice(1) : undefined;
      },
    };
    const got = normalizeArguments('X{"n": 1.0}', { repairs: [rule] });
    expect(got.text).toBe('{"n":1.0}');
    expect(runs).toBe(1);
    runs = 0;
    runSteps(normalizeArgumentsSteps('X{"n": 1.0}', { repairs: [rule] }));
    expect(runs).toBe(1);
  });

  it("keeps every digit of a big integer in a repaired Python dict", () => {
    expect(normalizeArguments("{'id': 12345678901234567891, 'x': 1.0}", { repairs: coreRepairs }).text).toBe(
      '{"id":12345678901234567891,"x":1.0}',
    );
  });
});
