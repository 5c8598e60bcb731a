import fc from "fast-check";
import { jsonrepair } from "jsonrepair";
import { describe, expect, it } from "vitest";
import { decodeArguments } from "./decode-arguments.js";
import { coreRepairs } from "./repairs/index.js";
import { createJsonrepairRepair, JSONREPAIR_MAX_LENGTH } from "./repairs/jsonrepair.js";
import type { RepairRule } from "./repairs/repair-rule.js";
import { validateToolCall } from "./validate-tool-call.js";
import {
  createWorkMeter,
  isWorkMeter,
  linearWorkLimit,
  meteredIndexOf,
  resolveWorkMeter,
  WORK_UNITS_BASE,
  WORK_UNITS_PER_CHAR,
} from "./work-budget.js";

/** jsonrepair, counting the characters it is handed: its own steps cannot be counted, its input can. */
function countingJsonrepair() {
  const calls: number[] = [];
  const rule = createJsonrepairRepair((text) => {
    calls.push(text.length);
    return jsonrepair(text);
  });
  return { rule, calls };
}

describe("the work meter", () => {
  it("counts, and reports exhaustion once past its limit, for good", () => {
    const meter = createWorkMeter({ limit: 10 });
    expect(meter.limit).toBe(10);
    expect(meter.charge(10)).toBe(true);
    expect(meter.exhausted).toBe(false);
    expect(meter.charge(1)).toBe(false);
    expect(meter.exhausted).toBe(true);
    expect(meter.charge(0)).toBe(false);
    meter.grant(5);
    expect(meter.exhausted).toBe(false);
    expect(meter.steps).toBe(11);
  });

  it("ignores amounts that are not positive numbers", () => {
    const meter = createWorkMeter();
    for (const units of [-5, 0, Number.NaN, Number.NEGATIVE_INFINITY]) meter.charge(units);
    expect(meter.steps).toBe(0);
    expect(meter.limit).toBe(Number.POSITIVE_INFINITY);
    expect(createWorkMeter({ limit: Number.NaN }).limit).toBe(Number.POSITIVE_INFINITY);
  });

  it("has a linear default limit", () => {
    expect(linearWorkLimit(0)).toBe(WORK_UNITS_BASE);
    expect(linearWorkLimit(1000)).toBe(WORK_UNITS_BASE + 1000 * WORK_UNITS_PER_CHAR);
    expect(linearWorkLimit(-3)).toBe(WORK_UNITS_BASE);
    expect(resolveWorkMeter({ length: 10 }).limit).toBe(linearWorkLimit(10));
    const own = createWorkMeter({ limit: 3 });
    expect(resolveWorkMeter({ meter: own, length: 10 })).toBe(own);
    expect(resolveWorkMeter({ meter: { charge: 1 }, length: 10 }).limit).toBe(linearWorkLimit(10));
    expect(isWorkMeter(null)).toBe(false);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(isWorkMeter(proxy)).toBe(false);
  });

  it("charges an indexOf what it covered", () => {
    const meter = createWorkMeter();
    expect(meteredIndexOf({ text: "abcabc", search: "c", from: 3, meter })).toBe(5);
    expect(meter.steps).toBe(3);
    expect(meteredIndexOf({ text: "abcabc", search: "x", from: 1, meter })).toBe(-1);
    expect(meter.steps).toBe(8);
  });
});

describe("decode under the budget", () => {
  it("never hands jsonrepair more than its bound, and says so: the 98 304-quote case", () => {
    const { rule, calls } = countingJsonrepair();
    const text = `{"a":${'"'.repeat(98_304)}`;
    const result = decodeArguments(text, { repairs: [...coreRepairs, rule] });
    expect(result.status).toBe("invalid");
    expect(result.budget).toEqual(["jsonrepair"]);
    expect(result.arguments).toEqual({ _raw_arguments: text });
    expect(calls).toEqual([]);
    expect(
      validateToolCall(
        { id: "c", type: "function", function: { name: "f", arguments: text } },
        {
          repairs: [rule],
        },
      )[0]?.message,
    ).toMatch(/budget: jsonrepair/);
  });

  it("still runs jsonrepair at its bound, and reports no budget there", () => {
    const { rule, calls } = countingJsonrepair();
    // An unquoted key: text jsonrepair fixes without completing anything (text that ends inside a value it never gets).
    const text = `{a: [1, 2]${" ".repeat(JSONREPAIR_MAX_LENGTH - 11)}}`;
    expect(text.length).toBe(JSONREPAIR_MAX_LENGTH);
    const result = decodeArguments(text, { repairs: [rule] });
    expect(result.status).toBe("repaired");
    expect(result.budget).toBeUndefined();
    expect(calls).toEqual([JSONREPAIR_MAX_LENGTH]);
  });

  it("bounds jsonrepair's input on any text: never more than its bound in one decode", () => {
    const { rule, calls } = countingJsonrepair();
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('"', "{", "[", ",", "a", ":", " ", "'", "\\"),
          minLength: 8,
          maxLength: 40,
        }),
        fc.integer({ min: 1, max: 4000 }),
        (unit, times) => {
          calls.length = 0;
          const text = `{${unit.repeat(times)}`;
          const result = decodeArguments(text, { repairs: [...coreRepairs, rule] });
          expect(calls.every((length) => length <= JSONREPAIR_MAX_LENGTH)).toBe(true);
          expect(calls.length).toBeLessThanOrEqual(1);
          if (result.budget !== undefined) expect(result.status).toBe("invalid");
        },
      ),
      { numRuns: 100 },
    );
  });

  it("honours a smaller bound, and a direct call is held to it too", () => {
    const { rule: small } = { rule: createJsonrepairRepair(jsonrepair, { maxLength: 4 }) };
    expect(small.maxLength).toBe(4);
    expect(decodeArguments("{a:1}", { repairs: [small] }).budget).toEqual(["jsonrepair"]);
    expect(small.repair("{a:1}")).toBeUndefined();
    expect(createJsonrepairRepair(jsonrepair, { maxLength: 5 }).repair("{a:1}")).toBe('{"a":1}');
  });

  it("leaves out the rules after the meter runs out, lists them, and keeps the text", () => {
    const greedy: RepairRule = {
      specificationVersion: "1",
      id: "greedy",
      description: "charges far more than linear",
      repair(text, context) {
        context?.meter.charge(Number.POSITIVE_INFINITY);
        return `${text}}`;
      },
    };
    const { rule, calls } = countingJsonrepair();
    const result = decodeArguments('{"a": 1,', { repairs: [greedy, rule] });
    expect(result).toMatchObject({ status: "invalid", budget: ["greedy", "jsonrepair"], repairs: [] });
    expect(calls).toEqual([]);
  });

  it("runs under a caller's meter, whose limit applies, and counts the strict parse too", () => {
    const meter = createWorkMeter();
    decodeArguments('{"a": 1}', { meter });
    expect(meter.steps).toBe(8);
    const spent = createWorkMeter({ limit: 0 });
    const result = decodeArguments("{'a': True}", { repairs: coreRepairs, meter: spent });
    expect(result.status).toBe("invalid");
    expect(result.budget).toEqual(coreRepairs.map((r) => r.id));
    // The strict parse is the floor: it runs whatever the meter says.
    expect(decodeArguments('{"a": 1}', { meter: spent }).status).toBe("object");
  });

  it("charges a rule that counts nothing one pass over its input", () => {
    const silent: RepairRule = {
      specificationVersion: "1",
      id: "silent",
      description: "counts nothing",
      repair: (text) => text.replace(/,\s*$/, "}"),
    };
    const meter = createWorkMeter();
    expect(decodeArguments('{"a": 1,', { repairs: [silent], meter }).status).toBe("repaired");
    // parse + blank check + the rule's pass and output + the parse after it
    expect(meter.steps).toBe(8 + 8 + 16 + 8);
  });
});
