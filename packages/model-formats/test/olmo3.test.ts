import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectOutputSyntax, detectToolCallSyntax, olmo3 } from "../src/index.js";
import { cutsFor, expectSplitInvariant, fixedIds } from "./helpers.js";
import { familyTemplate, itRoundTripsOnTemplate } from "./reference-round-trip.js";
import type { Case } from "./round-trip-property.js";

/*
 * AllenAI OLMo 3 (Olmo-3-7B-Instruct): its real template is read where it is (../shared/templates/families, not
 * copied into the repository). Outputs below follow the cases of vLLM's tests/tool_parsers/test_olmo3_tool_parser.py
 * (Apache-2.0), written here from what they show.
 */
const template = familyTemplate("allenai-Olmo-3-7B-Instruct");
const CASE: Case = {
  template: "allenai-Olmo-3-7B-Instruct",
  syntax: olmo3,
  content: true,
  reasoning: "none",
  calls: 3,
};
const read = (text: string, options = {}) => olmo3.parse(text, { createId: fixedIds, ...options });
const pairs = (text: string) =>
  read(text).toolCalls.map((call) => [call.function.name, call.function.arguments]);
const SIMPLE = "get_weather(city='San Francisco', metric='celsius')";
const SIMPLE_ARGS = '{"city": "San Francisco", "metric": "celsius"}';

describe("AllenAI OLMo 3 on its real template", () => {
  it("is detected by rendering", () => {
    expect(detectToolCallSyntax(template)).toMatchObject({
      id: "olmo3",
      method: "render",
      parallelCalls: true,
      candidates: ["olmo3"],
    });
  });

  itRoundTripsOnTemplate(CASE);
});

describe("AllenAI OLMo 3's calls (vLLM's olmo3 cases)", () => {
  it("Python literals and JSON literals read alike; no parameters, empty structures, escapes", () => {
    const python =
      "register_user(name='John Doe', age=37, address={'city': 'San Francisco', 'state': 'CA'}, role=None, passed_test=True, aliases=['John', 'Johnny'])";
    const json = python.replace("None", "null").replace("True", "true");
    const expected =
      '{"name": "John Doe", "age": 37, "address": {"city": "San Francisco", "state": "CA"}, "role": null, "passed_test": true, "aliases": ["John", "Johnny"]}';
    expect(pairs(`<function_calls>${python}</function_calls>`)).toEqual([["register_user", expected]]);
    expect(pairs(`<function_calls>${json}</function_calls>`)).toEqual([["register_user", expected]]);
    expect(pairs("<function_calls>get_weather()</function_calls>")).toEqual([["get_weather", "{}"]]);
    expect(pairs("<function_calls>do_something_cool(additional_data={})</function_calls>")).toEqual([
      ["do_something_cool", '{"additional_data": {}}'],
    ]);
    expect(pairs("<function_calls>do_something_cool(steps=[])</function_calls>")).toEqual([
      ["do_something_cool", '{"steps": []}'],
    ]);
    expect(
      pairs(
        String.raw`<function_calls>get_weather(city='Martha\'s Vineyard', metric='\"cool units\"')</function_calls>`,
      ),
    ).toEqual([["get_weather", '{"city": "Martha\'s Vineyard", "metric": "\\"cool units\\""}']]);
    expect(read("How can I help you today?")).toMatchObject({
      content: "How can I help you today?",
      toolCalls: [],
    });
  });

  it("three calls, one a line, at any cut", () => {
    const output = `<function_calls>${SIMPLE}\nget_weather()\ndo_something_cool(steps=[])</function_calls>`;
    fc.assert(
      fc.property(cutsFor(output.length), (cuts) => {
        const parsed = expectSplitInvariant(olmo3, output, {}, [cuts]);
        expect(parsed.content).toBeNull();
        expect(parsed.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual([
          ["get_weather", SIMPLE_ARGS],
          ["get_weather", "{}"],
          ["do_something_cool", '{"steps": []}'],
        ]);
        expect(parsed.issues).toEqual([]);
      }),
      { numRuns: 30, seed: 3 },
    );
  });

  it("a call that does not read stays in content up to its line's end; its siblings are read", () => {
    const parsed = read(`<function_calls>bad(x=b'z')\n${SIMPLE}</function_calls>`);
    expect(parsed.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual([
      ["get_weather", SIMPLE_ARGS],
    ]);
    expect(parsed.content).toBe("<function_calls>bad(x=b'z')");
    expect(parsed.issues.map((issue) => issue.code)).toEqual(["call_invalid"]);
    // A bracket out of place: no call, the block stays as written.
    const brackets = read("<function_calls>foo(x=1])</function_calls>");
    expect(brackets).toMatchObject({ toolCalls: [], content: "<function_calls>foo(x=1])</function_calls>" });
    expect(brackets.issues.map((issue) => issue.code)).toEqual(["call_invalid"]);
  });

  it("a call cut short stays in content; whole calls without </function_calls> stand (call_unclosed)", () => {
    const cut = "<function_calls>get_weather(city='San";
    expect(read(cut)).toMatchObject({ content: cut, toolCalls: [] });
    expect(read(cut).issues.map((issue) => issue.code)).toEqual(["call_truncated"]);
    const unclosed = read(`Checking.<function_calls>${SIMPLE}\n`);
    expect(unclosed.toolCalls.map((c) => c.function.arguments)).toEqual([SIMPLE_ARGS]);
    // The newline after the last call is the model's text, kept (no closing tag made it syntax).
    expect(unclosed.content).toBe("Checking.\n");
    expect(unclosed.issues.map((issue) => issue.code)).toEqual(["call_unclosed"]);
  });

  it("from output alone, names the family", () => {
    const output = olmo3.encode([
      { function: { name: "get_weather", arguments: '{"city": "Tokyo", "days": 3}' } },
    ]);
    expect(output).toBe('<function_calls>get_weather(city="Tokyo", days=3)</function_calls>');
    expect(detectOutputSyntax(`Let me check.${output}`)).toMatchObject({
      status: "detected",
      id: "olmo3",
      confidence: "certain",
    });
  });
});
