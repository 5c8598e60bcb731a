import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectOutputSyntax, detectToolCallSyntax, exaone4, hermes } from "../src/index.js";
import { cutsFor, expectSplitInvariant } from "./helpers.js";
import { familyTemplate, itRoundTripsOnTemplate } from "./reference-round-trip.js";
import { type Case, TOOLS } from "./round-trip-property.js";

/*
 * LG EXAONE 4.0 (LGAI-EXAONE/EXAONE-4.0-32B): its real template is read where it is (../shared/templates/families; its
 * licence, EXAONE AI Model License 1.2 - NC, does not let the repository hold a copy). It writes Hermes' call without
 * the newlines inside the tags, which Hermes' reader reads.
 */
const template = familyTemplate("LGAI-EXAONE-EXAONE-4.0-32B");
// The template writes `<think>\n\n</think>\n\n` before every past turn (it keeps no reasoning but the last turn's, and
// only when `skip_think` is false): the round trip's turns carry no reasoning.
const CASE: Case = {
  template: "LGAI-EXAONE-EXAONE-4.0-32B",
  syntax: exaone4,
  content: true,
  reasoning: "none",
  calls: 3,
};

describe("EXAONE 4 on its real template", () => {
  it("is detected by rendering (its call is not Hermes' byte for byte)", () => {
    expect(detectToolCallSyntax(template)).toMatchObject({
      id: "exaone4",
      method: "render",
      parallelCalls: true,
    });
  });

  itRoundTripsOnTemplate(CASE);

  it("splits reasoning when the prompt opened it (enable_thinking), at any cut", () => {
    const output =
      'The user wants Seoul.\n</think>\n\nLet me check.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Seoul", "days": 2}}</tool_call>';
    fc.assert(
      fc.property(cutsFor(output.length), (cuts) => {
        const parsed = expectSplitInvariant(exaone4, output, { startInReasoning: true }, [cuts]);
        expect(parsed.reasoning).toBe("The user wants Seoul.");
        expect(parsed.content).toBe("Let me check.");
        expect(parsed.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual([
          ["get_weather", '{"city": "Seoul", "days": 2}'],
        ]);
      }),
      { numRuns: 30, seed: 4 },
    );
  });

  it("from output alone, names the reader (hermes): nothing in the text tells EXAONE apart", () => {
    const output = exaone4.encode([{ function: { name: "edit_file", arguments: '{"path": "a.py"}' } }]);
    expect(output).toBe('<tool_call>{"name": "edit_file", "arguments": {"path": "a.py"}}</tool_call>');
    expect(detectOutputSyntax(output, { tools: TOOLS })).toMatchObject({ status: "detected", id: hermes.id });
    expect(detectOutputSyntax(output).candidates).not.toContain("exaone4");
  });
});
