import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectOutputSyntax, detectToolCallSyntax, qwen3Coder, step35 } from "../src/index.js";
import { cutsFor, expectSplitInvariant, fixedIds } from "./helpers.js";
import { familyTemplate, itRoundTripsOnTemplate } from "./reference-round-trip.js";
import { type Case, TOOLS } from "./round-trip-property.js";

/*
 * StepFun Step-3.5-Flash: its real template is read where it is (../shared/templates/families, not copied into the
 * repository). Outputs below follow the cases of vLLM's tests/tool_parsers/test_step3p5_tool_parser.py (Apache-2.0),
 * written here from what they show.
 */
const template = familyTemplate("stepfun-ai-Step-3.5-Flash");
const CASE: Case = {
  template: "stepfun-ai-Step-3.5-Flash",
  syntax: step35,
  content: true,
  reasoning: "any",
  calls: 3,
};
const read = (text: string, options = {}) => step35.parse(text, { createId: fixedIds, ...options });

describe("StepFun Step-3.5 on its real template", () => {
  it("is detected by rendering: two calls back to back tell it from Qwen3-Coder, whose writing it shares", () => {
    expect(detectToolCallSyntax(template)).toMatchObject({
      id: "step3p5",
      module: "@toolcall/model-formats/step3",
      method: "render",
      parallelCalls: true,
      startInReasoning: true,
      candidates: ["step3p5"],
    });
  });

  itRoundTripsOnTemplate(CASE);
});

describe("StepFun Step-3.5's calls (vLLM's Step-3.5 cases)", () => {
  it("reasoning the prompt opened, content, then two calls back to back, at any cut", () => {
    const output =
      "The user wants the weather and the time.\n</think>\nLet me check.<tool_call>\n<function=get_weather>\n<parameter=city>\nTokyo\n</parameter>\n</function>\n</tool_call><tool_call>\n<function=get_time>\n<parameter=timezone>\nAsia/Tokyo\n</parameter>\n</function>\n</tool_call>";
    fc.assert(
      fc.property(cutsFor(output.length), (cuts) => {
        const parsed = expectSplitInvariant(step35, output, { startInReasoning: true }, [cuts]);
        expect(parsed.reasoning).toBe("The user wants the weather and the time.");
        expect(parsed.content).toBe("Let me check.");
        expect(parsed.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual([
          ["get_weather", '{"city": "Tokyo"}'],
          ["get_time", '{"timezone": "Asia/Tokyo"}'],
        ]);
        expect(parsed.issues).toEqual([]);
      }),
      { numRuns: 30, seed: 35 },
    );
  });

  it("types values by the tool's schema, keeps a string's inner lines, reads a call with no parameters", () => {
    const tools = [
      {
        type: "function",
        function: {
          name: "test_function",
          parameters: {
            type: "object",
            properties: {
              int_field: { type: "integer" },
              bool_field: { type: "boolean" },
              array_field: { type: "array" },
              text: { type: "string" },
            },
          },
        },
      },
    ];
    const text =
      '<tool_call>\n<function=test_function>\n<parameter=int_field>\n42\n</parameter>\n<parameter=bool_field>\ntrue\n</parameter>\n<parameter=array_field>\n["a", "b"]\n</parameter>\n<parameter=text>\nline1\nline2\n</parameter>\n</function>\n</tool_call>';
    expect(read(text, { tools }).toolCalls[0]?.function.arguments).toBe(
      '{"int_field": 42, "bool_field": true, "array_field": ["a", "b"], "text": "line1\\nline2"}',
    );
    expect(
      read("<tool_call>\n<function=refresh>\n</function>\n</tool_call>").toolCalls[0]?.function.arguments,
    ).toBe("{}");
  });

  it("a call cut short stays in content as written (call_truncated)", () => {
    const cut = "<tool_call>\n<function=get_weather>\n<parameter=city>\nTok";
    const parsed = read(cut);
    expect(parsed).toMatchObject({ content: cut, toolCalls: [] });
    expect(parsed.issues.map((issue) => issue.code)).toEqual(["call_truncated"]);
  });

  it("from output alone, names the reader (qwen3-coder)", () => {
    const output = step35.encode([{ function: { name: "edit_file", arguments: '{"path": "a.py"}' } }]);
    expect(output).toBe(
      "<tool_call>\n<function=edit_file>\n<parameter=path>\na.py\n</parameter>\n</function>\n</tool_call>",
    );
    expect(detectOutputSyntax(output, { tools: TOOLS })).toMatchObject({
      status: "detected",
      id: qwen3Coder.id,
    });
    expect(detectOutputSyntax(output).candidates).not.toContain("step3p5");
  });
});
