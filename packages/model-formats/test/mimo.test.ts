import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectOutputSyntax, detectToolCallSyntax, mimo, qwen3Coder } from "../src/index.js";
import { cutsFor, expectSplitInvariant, fixedIds } from "./helpers.js";
import { familyTemplate, itRoundTripsOnTemplate } from "./reference-round-trip.js";
import { type Case, TOOLS } from "./round-trip-property.js";

/*
 * Xiaomi MiMo-V2-Flash: its real template is read where it is (../shared/templates/families, not copied into the
 * repository). Outputs below follow the cases of vLLM's tests/tool_parsers/test_mimov2_flash_tool_parser.py (Apache-2.0),
 * written here from what they show.
 */
const template = familyTemplate("XiaomiMiMo-MiMo-V2-Flash");
// With thinking on, the generation prompt writes nothing and the turn starts with its `<think>…</think>` (empty when the
// message has no reasoning); with thinking off the prompt writes `<think></think>` and a turn with reasoning is not a
// continuation of it.
const CASE: Case = {
  template: "XiaomiMiMo-MiMo-V2-Flash",
  syntax: mimo,
  content: true,
  reasoning: "any",
  calls: 3,
  variables: { enable_thinking: true },
};
const calls = (text: string, options = {}) =>
  mimo
    .parse(text, { createId: fixedIds, ...options })
    .toolCalls.map((call) => [call.function.name, JSON.parse(call.function.arguments)]);

describe("Xiaomi MiMo on its real template", () => {
  it("is detected by rendering: a value without newlines around it is not Qwen3-Coder's writing", () => {
    expect(detectToolCallSyntax(template)).toMatchObject({
      id: "mimo",
      method: "render",
      parallelCalls: true,
      startInReasoning: false,
      candidates: ["mimo"],
    });
  });

  itRoundTripsOnTemplate(CASE);
});

describe("Xiaomi MiMo's calls (vLLM's MiMo-V2-Flash cases)", () => {
  it("keeps a value exactly as written: shell text, quotes, lines", () => {
    expect(
      calls(
        "Here is the result:\n<tool_call>\n<function=execute_bash>\n<parameter=command>pwd && ls</parameter>\n</function>\n</tool_call>",
      ),
    ).toEqual([["execute_bash", { command: "pwd && ls" }]]);
    expect(
      calls(
        '<tool_call>\n<function=execute_code>\n<parameter=language>python</parameter>\n<parameter=code>print("hello")</parameter>\n</function>\n</tool_call>',
      ),
    ).toEqual([["execute_code", { language: "python", code: 'print("hello")' }]]);
    const multiline =
      "<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>value_1</parameter>\n<parameter=example_parameter_2>This is the value for the second parameter\nthat can span\nmultiple lines</parameter>\n</function>\n</tool_call>";
    expect(calls(multiline)).toEqual([
      [
        "example_function_name",
        {
          example_parameter_1: "value_1",
          example_parameter_2: "This is the value for the second parameter\nthat can span\nmultiple lines",
        },
      ],
    ]);
    // A newline around a value is the model's, not syntax: it stays (Qwen3-Coder removes one each side).
    const lined =
      "<tool_call>\n<function=write>\n<parameter=text>\nline\n</parameter>\n</function>\n</tool_call>";
    expect(calls(lined)).toEqual([["write", { text: "\nline\n" }]]);
    expect(qwen3Coder.parse(lined).toolCalls[0]?.function.arguments).toBe('{"text": "line"}');
  });

  it("splits reasoning and content, a call with no parameters is {}, at any cut", () => {
    const output =
      "<think>The user wants the files.</think>Let me execute that command for you.<tool_call>\n<function=execute_bash>\n<parameter=command>echo hello</parameter>\n</function>\n</tool_call><tool_call>\n<function=noop>\n</function>\n</tool_call>";
    fc.assert(
      fc.property(cutsFor(output.length), (cuts) => {
        const parsed = expectSplitInvariant(mimo, output, {}, [cuts]);
        expect(parsed.reasoning).toBe("The user wants the files.");
        expect(parsed.content).toBe("Let me execute that command for you.");
        expect(parsed.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual([
          ["execute_bash", '{"command": "echo hello"}'],
          ["noop", "{}"],
        ]);
        expect(parsed.issues).toEqual([]);
      }),
      { numRuns: 30, seed: 7 },
    );
  });

  it("types values by the tool's schema; plain text is content", () => {
    const tools = [
      {
        type: "function",
        function: {
          name: "edit_file",
          parameters: {
            type: "object",
            properties: { line: { type: "integer" }, force: { type: "boolean" } },
          },
        },
      },
    ];
    const text =
      "<tool_call>\n<function=edit_file>\n<parameter=line>12</parameter>\n<parameter=force>True</parameter>\n</function>\n</tool_call>";
    expect(mimo.parse(text, { tools }).toolCalls[0]?.function.arguments).toBe('{"line": 12, "force": true}');
    expect(mimo.parse("This is just regular text without any tool calls.")).toMatchObject({
      content: "This is just regular text without any tool calls.",
      toolCalls: [],
      issues: [],
    });
  });

  it("a call cut short stays in content as written; a whole call missing its end is read (call_unclosed)", () => {
    const cut = "Say hello <tool_call>\n<function=greet>\n<parameter=name>Wor";
    const parsed = mimo.parse(cut);
    expect(parsed.toolCalls).toEqual([]);
    expect(parsed.content).toBe(cut);
    expect(parsed.issues.map((issue) => issue.code)).toEqual(["call_truncated"]);
    const unclosed = mimo.parse("<tool_call>\n<function=greet>\n<parameter=name>World</parameter>\n");
    expect(unclosed.toolCalls.map((c) => c.function.arguments)).toEqual(['{"name": "World"}']);
    expect(unclosed.issues.map((issue) => issue.code)).toEqual(["call_unclosed"]);
  });

  it("from output alone, names the reader (qwen3-coder): nothing but a newline tells MiMo apart", () => {
    const output = mimo.encode([{ function: { name: "edit_file", arguments: '{"path": "a.py"}' } }]);
    expect(output).toBe(
      "<tool_call>\n<function=edit_file>\n<parameter=path>a.py</parameter>\n</function>\n</tool_call>",
    );
    expect(detectOutputSyntax(output, { tools: TOOLS })).toMatchObject({
      status: "detected",
      id: qwen3Coder.id,
    });
    expect(detectOutputSyntax(output).candidates).not.toContain("mimo");
  });
});
