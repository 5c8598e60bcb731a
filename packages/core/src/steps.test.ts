import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeArguments, decodeArgumentsSteps } from "./decode-arguments.js";
import { normalizeAnswerArguments, normalizeAnswerArgumentsSteps } from "./normalize-answer-arguments.js";
import { normalizeArguments, normalizeArgumentsSteps } from "./normalize-arguments.js";
import { coreRepairs } from "./repairs/index.js";
import type { RepairRule } from "./repairs/repair-rule.js";
import { runSteps } from "./run-steps.js";

/** Argument payloads as models and servers send them, near-JSON that the repairs act on included. */
const argumentsArbitrary = fc.oneof(
  fc.json(),
  fc.string(),
  fc.jsonValue(),
  fc.constantFrom(
    "",
    "null",
    '"{\\"a\\":1}"',
    "{not json}",
    '{"a": ',
    '```json\n{"a":1}\n```',
    "{'a': True}",
    '{"a":1,}',
    '{"a":1}{"a":1}',
    '{"a": 12345678901234567891, "b": 1.0,}',
  ),
  fc
    .tuple(
      fc.constantFrom("```json\n", "{'a': ", '{"a": [1,', ""),
      fc.json(),
      fc.constantFrom("```", ",}", "}", ""),
    )
    .map(([a, b, c]) => `${a}${b}${c}`),
);
const finishReasons = fc.constantFrom(undefined, null, "stop", "length", "tool_calls");

/** Every rule of `repairs`, counting its calls into `calls`. */
function counted(repairs: readonly RepairRule[], calls: { n: number }): RepairRule[] {
  return repairs.map((rule) => ({
    ...rule,
    repair: (text, context) => {
      calls.n++;
      return rule.repair(text, context);
    },
  }));
}

/** Runs steps one by one; returns the result and how many rules ran in each step. */
function stepwise<T>(steps: Generator<void, T, void>, calls: { n: number }): { value: T; perStep: number[] } {
  const perStep: number[] = [];
  for (;;) {
    const before = calls.n;
    const next = steps.next();
    perStep.push(calls.n - before);
    if (next.done === true) return { value: next.value, perStep };
  }
}

describe("step-wise decode and normalize", () => {
  it("give what the one-shot functions give, for any input", () => {
    fc.assert(
      fc.property(argumentsArbitrary, finishReasons, fc.boolean(), (value, finishReason, lossless) => {
        const options = { repairs: coreRepairs, finishReason, lossless };
        expect(runSteps(decodeArgumentsSteps(value, options))).toEqual(decodeArguments(value, options));
        expect(runSteps(normalizeArgumentsSteps(value, options))).toEqual(normalizeArguments(value, options));
        expect(runSteps(normalizeAnswerArgumentsSteps(value, options))).toEqual(
          normalizeAnswerArguments(value, options),
        );
      }),
      { numRuns: 400 },
    );
  });

  it("run at most one repair rule per step", () => {
    fc.assert(
      fc.property(argumentsArbitrary, finishReasons, (value, finishReason) => {
        const calls = { n: 0 };
        const repairs = counted(coreRepairs, calls);
        const { value: answer, perStep } = stepwise(
          normalizeAnswerArgumentsSteps(value, { repairs, finishReason }),
          calls,
        );
        expect(Math.max(...perStep)).toBeLessThanOrEqual(1);
        // Nothing was skipped for the steps: the rules ran as often as in one go.
        const oneShot = { n: 0 };
        normalizeAnswerArguments(value, { repairs: counted(coreRepairs, oneShot), finishReason });
        expect(calls.n).toBe(oneShot.n);
        expect(answer).toEqual(normalizeAnswerArguments(value, { repairs: coreRepairs, finishReason }));
      }),
      { numRuns: 300 },
    );
  });

  it("split text every rule fails on into one step per rule, and valid text into one step", () => {
    const calls = { n: 0 };
    const repairs = counted(coreRepairs, calls);
    const failing = stepwise(decodeArgumentsSteps("{oops", { repairs }), calls);
    expect(failing.value.status).toBe("invalid");
    expect(failing.perStep).toEqual([0, ...coreRepairs.map(() => 1)]);
    expect(stepwise(decodeArgumentsSteps('{"a":1}', { repairs }), calls).perStep).toEqual([0]);
  });
});
