import fc from "fast-check";
import { jsonrepair } from "jsonrepair";
import { describe, expect, it } from "vitest";
import {
  decodeArguments,
  decodeArgumentsSteps,
  decodeArgumentsUnlessObjectText,
} from "./decode-arguments.js";
import { EMPTY_LIST } from "./empty-list.js";
import { normalizeAnswerArguments } from "./normalize-answer-arguments.js";
import { coreRepairs } from "./repairs/index.js";
import { createJsonrepairRepair } from "./repairs/jsonrepair.js";
import { runSteps } from "./run-steps.js";

/**
 * Core's contract: `DecodeResult.repairs` is readonly, and a decode that applied no repair shares the one frozen
 * `EMPTY_LIST` (a clean call, the common case, makes no list); a decode that applied some has a list of its own.
 */
describe("EMPTY_LIST in decode results", () => {
  it("is frozen: adding to it throws instead of changing every result that shares it", () => {
    expect(Object.isFrozen(EMPTY_LIST)).toBe(true);
    expect(() => (EMPTY_LIST as unknown as string[]).push("x")).toThrow(TypeError);
  });

  it("is what every status without a repair lists", () => {
    const inputs: unknown[] = [
      '{"city": "Paris"}',
      "",
      "null",
      '"{\\"a\\": 1}"',
      "[1, 2]",
      "{'a': 1",
      undefined,
      { a: 1 },
      42,
    ];
    const statuses = new Set<string>();
    for (const input of inputs) {
      const decoded = decodeArguments(input);
      statuses.add(decoded.status);
      expect(decoded.repairs).toBe(EMPTY_LIST);
    }
    expect([...statuses].sort()).toEqual(
      [
        "absent",
        "double_encoded",
        "empty",
        "invalid",
        "native_non_object",
        "non_object",
        "null_literal",
        "object",
      ].sort(),
    );
    expect(decodeArguments('{"a": ', { finishReason: "length" }).repairs).toBe(EMPTY_LIST);
    // A call a length stop cut before any argument text.
    expect(normalizeAnswerArguments("", { finishReason: "length" }).decoded.repairs).toBe(EMPTY_LIST);
  });

  it("a repaired decode has a list of its own, and two such results share nothing", () => {
    const first = decodeArguments("{'a': 1}", { repairs: coreRepairs });
    const second = decodeArguments("{'a': 2}", { repairs: coreRepairs });
    expect(first.status).toBe("repaired");
    expect(first.repairs).toEqual(["python-literal"]);
    expect(first.repairs).not.toBe(second.repairs);
    expect(Object.isFrozen(first.repairs)).toBe(false);
  });

  it("holds for any text, whole, in steps, and through the sanitize door", () => {
    const repairs = [...coreRepairs, createJsonrepairRepair(jsonrepair)];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.json().map((json) => json.replaceAll('"', "'")),
          fc.json().map((json) => json.slice(0, -1)),
        ),
        fc.boolean(),
        (text, withRepairs) => {
          const options = withRepairs ? { repairs } : {};
          for (const decoded of [
            decodeArguments(text, options),
            runSteps(decodeArgumentsSteps(text, options)),
            decodeArgumentsUnlessObjectText(text, options),
          ]) {
            if (decoded.repairs.length === 0) expect(decoded.repairs).toBe(EMPTY_LIST);
            else expect(decoded.repairs).not.toBe(EMPTY_LIST);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
