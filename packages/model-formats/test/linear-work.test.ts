import type { WorkCounter } from "@toolcall/core/kit";
import { describe, expect, it } from "vitest";
import { MarkerSet } from "../src/engine/marker-set.js";
import { syntaxById } from "../src/registry.js";
import { streamedWork } from "./helpers.js";

/**
 * Texts that once made a parser's native searches rescan the text past every hit (work the count did not see): a
 * marker set whose markers share no prefix searched once per first character, so a text full of one of them and
 * free of another (`<tool_call>` repeated has no `\n`) was scanned to its end at each hit.
 */
const HOSTILE: readonly { syntax: string; lead: string; unit: string }[] = [
  { syntax: "glm45", lead: "", unit: "<tool_call>" },
  { syntax: "glm47", lead: "", unit: "<tool_call>" },
  { syntax: "phi4-mini", lead: 'functools[{"name": "get_weather", "arguments":', unit: "f" },
];

function wholeWork(id: string, text: string): number {
  const work: WorkCounter = { scanned: 0 };
  syntaxById(id)?.parse(text, { work });
  return work.scanned;
}

describe("work stays linear where native searches could rescan (issue: three parsers quadratic on whole text)", () => {
  for (const { syntax: id, lead, unit } of HOSTILE) {
    it(`${id} on ${JSON.stringify(lead)} + ${JSON.stringify(unit)} repeated: work grows with the text, whole and streamed`, () => {
      const syntax = syntaxById(id);
      if (syntax === undefined) throw new Error(id);
      const sizes = [1 << 14, 1 << 16];
      const works = sizes.map((size) => {
        const text = lead + unit.repeat(Math.ceil(size / unit.length));
        const whole = wholeWork(id, text);
        const streamed = streamedWork(syntax, text, 4096);
        expect(whole, `whole, ${size}`).toBeLessThanOrEqual(4 * text.length + 1000);
        expect(streamed, `streamed, ${size}`).toBeLessThanOrEqual(12 * text.length + 1000);
        return whole;
      });
      // Four times the text, at most about four times the work (k ≤ 1.2 in the bench's terms).
      const [small = 1, large = 0] = works;
      expect(Math.log(large / small) / Math.log(4)).toBeLessThanOrEqual(1.2);
    });
  }

  it("a marker set counts every character its native searches examine", () => {
    const set = new MarkerSet(["\n", "<arg_key>", "</tool_call>"]);
    const text = "<x".repeat(1000);
    expect(set.find(text, 0, true)).toBe(-1);
    // Each character once: a search per first character would count the text once per `<`.
    expect(set.scanned).toBe(text.length);
  });
});
