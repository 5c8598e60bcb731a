import type { WorkCounter } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lfm2, llamaPythonic, olmo3 } from "../src/index.js";
import { cutsFor, expectSplitInvariant } from "./helpers.js";

// The two readings Python refuses that pythonic calls take where they have one meaning (docs/decisions.md): a set as
// the list of its items, a raw line break inside a string as a line break. Recorded, never on a cut call, linear.

const quoted = (text: string) => `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
const word = fc.string({ minLength: 1, maxLength: 8 }).filter((text) => !text.includes("\n"));

describe("pythonic repairs", () => {
  it("a set of distinct items is the list of them as written, whole and streamed at any split", () => {
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 5 }), fc.nat(), (items, seed) => {
        const text = `<|tool_call_start|>[label(tags={${items.map(quoted).join(", ")}})]<|tool_call_end|>`;
        const whole = expectSplitInvariant(lfm2, text, {}, [[1 + (seed % (text.length - 1))]]);
        expect(whole.toolCalls.map((call) => JSON.parse(call.function.arguments))).toEqual([{ tags: items }]);
        expect(whole.issues.map((issue) => issue.code)).toEqual(["set_as_list"]);
      }),
      { numRuns: 60 },
    );
  });

  it("a string holding raw line breaks is read with them, whole and streamed; cut, it is content unrepaired", () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 2, maxLength: 5 }), cutsFor(60), (lines, cuts) => {
        const value = lines.join("\n");
        const text = `[run(code=${quoted(value)})]`;
        const whole = expectSplitInvariant(llamaPythonic, text, {}, [cuts]);
        expect(whole.toolCalls.map((call) => JSON.parse(call.function.arguments))).toEqual([{ code: value }]);
        expect(whole.issues.map((issue) => issue.code)).toEqual(["string_line_break"]);
        const cut = expectSplitInvariant(llamaPythonic, text.slice(0, text.length - 3), {}, [cuts]);
        expect(cut.toolCalls).toEqual([]);
        expect(cut.issues.map((issue) => issue.code)).toEqual(["call_truncated"]);
      }),
      { numRuns: 60 },
    );
  });

  it("work stays linear on text built to hold strings and sets open", () => {
    for (const [syntax, unit] of [
      [lfm2, "<|tool_call_start|>[f(a='\n"],
      [lfm2, "<|tool_call_start|>[f(a={'x', "],
      [llamaPythonic, "[f(a='\n"],
      [olmo3, "f(a='\n"],
    ] as const) {
      const perChar = [500, 4000].map((times) => {
        const text = unit.repeat(times);
        const work: WorkCounter = { scanned: 0 };
        syntax.parse(text, { work });
        return work.scanned / text.length;
      });
      expect(perChar[1], `${syntax.id} ${JSON.stringify(unit)}`).toBeLessThanOrEqual(
        (perChar[0] ?? 0) * 1.05 + 0.01,
      );
      expect(perChar[1]).toBeLessThanOrEqual(3);
    }
  });
});
