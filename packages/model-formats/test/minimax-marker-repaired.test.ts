import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { minimaxM2 } from "../src/index.js";
import { trickyText } from "./arbitraries.js";
import { cutsFor, expectSplitInvariant, streamedWork } from "./helpers.js";

// Look-alike of the MiniMax M2 output whose invoke lost its `<` (the form issue reports name as seen in the wild).
const LOST =
  '<minimax:tool_call>\ninvoke name="get_weather">\n<parameter name="city">Tokyo</parameter>\n</invoke>\n</minimax:tool_call>';
const codes = (text: string) => minimaxM2.parse(text).issues.map((issue) => issue.code);

describe("MiniMax M2: an invoke that lost its <", () => {
  it("is read inside the section, recorded as marker_repaired", () => {
    const result = expectSplitInvariant(minimaxM2, LOST);
    expect(result.toolCalls.map((call) => call.function)).toEqual([
      { name: "get_weather", arguments: '{"city": "Tokyo"}' },
    ]);
    expect(result.content).toBeNull();
    expect(result.issues.map((issue) => [issue.code, issue.severity])).toEqual([["marker_repaired", "info"]]);
  });

  it("is read after a well-formed call in the same section", () => {
    const text = LOST.replace("</invoke>\n", '</invoke>\ninvoke name="get_time">\n</invoke>\n');
    const result = expectSplitInvariant(minimaxM2, text);
    expect(result.toolCalls.map((call) => call.function.name)).toEqual(["get_weather", "get_time"]);
  });

  it("is never read on a cut call: the text goes back to content", () => {
    const cut = LOST.slice(0, LOST.indexOf("Tok") + 3);
    const result = expectSplitInvariant(minimaxM2, cut);
    expect(result.toolCalls).toEqual([]);
    expect(result.content).toBe(cut);
    expect(codes(cut)).not.toContain("marker_repaired");
    expect(codes(cut)).toContain("call_truncated");
  });

  it("is never read outside a section", () => {
    const text = 'Write invoke name="f"> in the docs.';
    const result = minimaxM2.parse(text);
    expect(result.toolCalls).toEqual([]);
    expect(result.content).toBe(text);
    expect(result.issues).toEqual([]);
  });

  it("whole and stream agree at random cuts", () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(LOST, LOST.slice(0, 60), `Sure.\n${LOST}`)
          .chain((text) => fc.tuple(fc.constant(text), cutsFor(text.length))),
        ([text, cuts]) => {
          expectSplitInvariant(minimaxM2, text, {}, [cuts]);
        },
      ),
    );
  });

  it("is total on hostile text around the lost marker", () => {
    fc.assert(
      fc.property(trickyText(40), trickyText(40), (before, after) => {
        const text = `<minimax:tool_call>${before}invoke ${after}`;
        const result = minimaxM2.parse(text);
        expect(Array.isArray(result.toolCalls)).toBe(true);
      }),
    );
  });

  it("does work linear in the number of repaired calls", () => {
    const call = 'invoke name="f">\n<parameter name="a">x</parameter>\n</invoke>\n';
    const text = (count: number) => `<minimax:tool_call>\n${call.repeat(count)}</minimax:tool_call>`;
    const small = streamedWork(minimaxM2, text(200), 7);
    const large = streamedWork(minimaxM2, text(800), 7);
    expect(large / small).toBeLessThan(4.5);
    expect(minimaxM2.parse(text(50)).toolCalls).toHaveLength(50);
  });
});
