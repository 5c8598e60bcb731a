import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectOutputSyntax, detectToolCallSyntax, longcat } from "../src/index.js";
import { cutsFor, expectSplitInvariant, fixedIds } from "./helpers.js";
import { familyTemplate, itRoundTripsOnTemplate } from "./reference-round-trip.js";
import type { Case } from "./round-trip-property.js";

/*
 * Meituan LongCat-Flash-Chat: its real template is read where it is (../shared/templates/families, not copied into
 * the repository). Outputs below follow the cases of vLLM's tests/tool_parsers/test_longcat_tool_parser.py
 * (Apache-2.0), written here from what they show.
 */
const template = familyTemplate("meituan-longcat-LongCat-Flash-Chat");
// The template writes a turn's reasoning only with thinking on, and then its generation prompt (` /think_on
// ASSISTANT:<longcat_think>`) is not the start of the turn it writes: the round trip's turns carry none.
const CASE: Case = {
  template: "meituan-longcat-LongCat-Flash-Chat",
  syntax: longcat,
  content: true,
  reasoning: "none",
  calls: 3,
};
const read = (text: string, options = {}) => longcat.parse(text, { createId: fixedIds, ...options });
const pairs = (text: string, options = {}) =>
  read(text, options).toolCalls.map((call) => [call.function.name, call.function.arguments]);

describe("Meituan LongCat on its real template", () => {
  it("is detected by rendering", () => {
    expect(detectToolCallSyntax(template)).toMatchObject({
      id: "longcat",
      method: "render",
      parallelCalls: true,
      candidates: ["longcat"],
    });
  });

  itRoundTripsOnTemplate(CASE);
});

describe("Meituan LongCat's calls (vLLM's LongCat cases)", () => {
  it("one call, two calls, every JSON type, an empty object, at any cut", () => {
    expect(
      pairs('<longcat_tool_call>{"name": "get_weather", "arguments": {"city": "Tokyo"}}</longcat_tool_call>'),
    ).toEqual([["get_weather", '{"city": "Tokyo"}']]);
    const output =
      'Let me check the weather for you.\n<longcat_tool_call>{"name": "get_weather", "arguments": {"city": "Tokyo"}}</longcat_tool_call>\n<longcat_tool_call>{\n  "name": "test_function",\n  "arguments": {\n    "int_field": 42,\n    "bool_field": true,\n    "null_field": null,\n    "array_field": ["a", "b"],\n    "empty_object": {}\n  }\n}</longcat_tool_call>\nHere is the result.';
    fc.assert(
      fc.property(cutsFor(output.length), (cuts) => {
        const parsed = expectSplitInvariant(longcat, output, {}, [cuts]);
        // The template writes nothing between content and calls: every newline around them is the model's.
        expect(parsed.content).toBe("Let me check the weather for you.\n\n\nHere is the result.");
        expect(parsed.toolCalls.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([
          ["get_weather", { city: "Tokyo" }],
          [
            "test_function",
            { int_field: 42, bool_field: true, null_field: null, array_field: ["a", "b"], empty_object: {} },
          ],
        ]);
        expect(parsed.issues).toEqual([]);
      }),
      { numRuns: 30, seed: 11 },
    );
  });

  it("reasoning the prompt opened, then content and a call", () => {
    const parsed = read(
      'The user wants Tokyo.\n</longcat_think>\nSure.<longcat_tool_call>\n{"name": "get_weather", "arguments": {"city": "Tokyo"}}\n</longcat_tool_call>',
      { startInReasoning: true },
    );
    expect(parsed).toMatchObject({ reasoning: "The user wants Tokyo.", content: "Sure.", issues: [] });
    expect(parsed.toolCalls.map((c) => c.function.name)).toEqual(["get_weather"]);
  });

  it("malformed calls stay in content as written; a whole call missing its end tag is read", () => {
    for (const text of [
      '<longcat_tool_call>{"name": "func", "arguments": {',
      "Some text with <longcat_tool_call>invalid json",
    ]) {
      const parsed = read(text);
      expect(parsed.toolCalls, text).toEqual([]);
      expect(parsed.content, text).toBe(text);
      expect(parsed.issues.length, text).toBe(1);
    }
    const unclosed = read('<longcat_tool_call>\n{"name": "refresh", "arguments": {}}');
    expect(unclosed.toolCalls.map((c) => c.function.arguments)).toEqual(["{}"]);
    expect(unclosed.issues.map((issue) => issue.code)).toEqual(["call_unclosed"]);
  });

  it("from output alone, names the family: its tags are its own", () => {
    const output = longcat.encode([{ function: { name: "edit_file", arguments: '{"path": "a.py"}' } }]);
    expect(output).toBe(
      '<longcat_tool_call>\n{"name": "edit_file", "arguments": {"path": "a.py"}}\n</longcat_tool_call>',
    );
    expect(detectOutputSyntax(`I will edit it.${output}`)).toMatchObject({
      status: "detected",
      id: "longcat",
      confidence: "certain",
    });
  });
});
