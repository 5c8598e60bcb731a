import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { kimiK3 } from "../src/index.js";
import { cutsFor, expectSplitInvariant } from "./helpers.js";

/**
 * SGLang's Kimi K3 tests (its tool detector's and its reasoning parser's, Apache-2.0), as data
 * (`__fixtures__/peers/sglang-kimik3-cases.json`): each text read whole and in random splits, compared with what the
 * test states. Where we differ on purpose, the case's `difference` holds what we give, and why.
 */
interface Expected {
  calls: [string, unknown][];
  content: string | null;
  reasoning?: string | null;
}
interface KimiK3Case {
  id: string;
  test: string;
  text: string;
  startInReasoning: boolean;
  tools: string[];
  sglang: Expected;
  difference?: Partial<Expected> & { reason: string; issues?: string[] };
}

const { cases } = JSON.parse(
  readFileSync(new URL("./__fixtures__/peers/sglang-kimik3-cases.json", import.meta.url), "utf8"),
) as { cases: KimiK3Case[] };

const toolsOf = (names: string[]) =>
  names.map((name) => ({
    type: "function",
    function: { name, parameters: { type: "object", properties: { code: { type: "string" } } } },
  }));

describe("SGLang's Kimi K3 cases", () => {
  test("agree except for the documented differences", () => {
    const agreed = cases.filter((c) => c.difference === undefined).length;
    expect({ cases: cases.length, agreed }).toEqual({ cases: 26, agreed: 19 });
  });

  for (const c of cases) {
    test(`${c.id} (${c.test})`, () => {
      const expected = { ...c.sglang, ...(c.difference ?? {}) };
      fc.assert(
        fc.property(cutsFor(c.text.length), (cuts) => {
          const parsed = expectSplitInvariant(
            kimiK3,
            c.text,
            { startInReasoning: c.startInReasoning, tools: toolsOf(c.tools) },
            [cuts],
          );
          expect(
            parsed.toolCalls.map((call) => [call.function.name, JSON.parse(call.function.arguments)]),
          ).toEqual(expected.calls);
          expect(parsed.content).toBe(expected.content);
          if ("reasoning" in expected) expect(parsed.reasoning ?? "").toBe(expected.reasoning ?? "");
          if (c.difference?.issues)
            expect(parsed.issues.map((issue) => issue.code)).toEqual(c.difference.issues);
        }),
        { numRuns: 10, seed: 11 },
      );
    });
  }
});
