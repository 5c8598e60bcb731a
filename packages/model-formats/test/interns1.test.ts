import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectOutputSyntax, detectToolCallSyntax, internS1 } from "../src/index.js";
import { cutsFor, expectSplitInvariant } from "./helpers.js";
import { itRoundTripsOnTemplate } from "./reference-round-trip.js";
import { type Case, expectRoundTrips, TOOLS } from "./round-trip-property.js";

/*
 * Intern-S1's own chat template (internlm/Intern-S1, Apache-2.0) is not in the project's corpus and could not be
 * fetched here: the round trip runs on a look-alike written for this test. It imitates the InternLM2 chat format that
 * Intern-S1 keeps for tools, as InternLM/InternLM's chat_format.md shows it (tools in a `system name=<|plugin|>` turn,
 * `<|action_start|><|plugin|>\n{"name": …, "parameters": …}<|action_end|>` after the text, results in an `environment`
 * turn), with the `<think>` block lmdeploy's `intern-s1` reasoning parser reads. The output cases follow vLLM's tests
 * of its `intern-s1` parser (vllm-project/vllm tests/tool_parsers/test_intern_s1_tool_parser.py) without copying them.
 */
const INTERN_S1_LOOK_ALIKE = `{#- look-alike of internlm/Intern-S1's tool turns (InternLM2 chat format + <think>), written for these tests -#}
{%- if tools -%}
{{- '<|im_start|>system name=<|plugin|>\\n' + (tools | tojson) + '<|im_end|>\\n' -}}
{%- endif -%}
{%- for message in messages -%}
{%- if message.role == 'assistant' -%}
{{- '<|im_start|>assistant\\n' -}}
{%- if message.reasoning_content -%}{{- '<think>\\n' + message.reasoning_content + '\\n</think>\\n\\n' -}}{%- endif -%}
{{- message.content or '' -}}
{%- for tool_call in message.tool_calls or [] -%}
{{- '<|action_start|><|plugin|>\\n{"name": "' + tool_call.function.name + '", "parameters": ' + (tool_call.function.arguments | tojson) + '}<|action_end|>' -}}
{%- endfor -%}
{{- '<|im_end|>\\n' -}}
{%- elif message.role == 'tool' -%}
{{- '<|im_start|>environment name=<|plugin|>\\n' + message.content + '<|im_end|>\\n' -}}
{%- else -%}
{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' -}}
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}
{{- '<|im_start|>assistant\\n' -}}
{%- if enable_thinking -%}{{- '<think>\\n' -}}{%- endif -%}
{%- endif -%}`;

const CASE: Case = {
  template: "look-alike of internlm/Intern-S1",
  source: INTERN_S1_LOOK_ALIKE,
  syntax: internS1,
  content: true,
  reasoning: "any",
  calls: 3,
};

describe("Intern-S1 on a look-alike of its template", () => {
  it("is detected by rendering", () => {
    expect(detectToolCallSyntax(INTERN_S1_LOOK_ALIKE)).toMatchObject({
      id: "interns1",
      method: "render",
      parallelCalls: true,
    });
  });

  itRoundTripsOnTemplate(CASE);

  it("with enable_thinking the text starts inside the reasoning block", () => {
    // The prompt opens `<think>`: every turn the template writes then holds reasoning.
    const thinking: Case = { ...CASE, reasoning: "non-empty", variables: { enable_thinking: true } };
    expectRoundTrips(thinking, INTERN_S1_LOOK_ALIKE);
  });
});

describe("Intern-S1 output", () => {
  const weather = '{"name": "get_weather", "parameters": {"city": "Tokyo"}}';
  const time = '{"name": "get_time", "parameters": {"timezone": "Asia/Tokyo"}}';

  it.each([
    [
      "spaced special tokens",
      `<|action_start|> <|plugin|>\n${weather}\n<|action_end|>`,
      null,
      [["get_weather", '{"city": "Tokyo"}']],
    ],
    [
      "two action blocks, then the answer",
      `<|action_start|><|plugin|>${weather}<|action_end|>\n<|action_start|><|plugin|>${time}<|action_end|>\nVisible answer.`,
      "\n\nVisible answer.",
      [
        ["get_weather", '{"city": "Tokyo"}'],
        ["get_time", '{"timezone": "Asia/Tokyo"}'],
      ],
    ],
    [
      "reasoning, text, an arguments key",
      `<think>\nThe user wants news.\n</think>\n\nLet me look.<|action_start|><|plugin|>\n{"name": "search", "arguments": {"query": "AI news"}}\n<|action_end|>`,
      "Let me look.",
      [["search", '{"query": "AI news"}']],
    ],
  ])("%s: at any cut", (_label, output, content, calls) => {
    fc.assert(
      fc.property(cutsFor(output.length), (cuts) => {
        const parsed = expectSplitInvariant(internS1, output, {}, [cuts]);
        expect(parsed.issues).toEqual([]);
        expect(parsed.content).toBe(content);
        expect(parsed.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual(calls);
      }),
      { numRuns: 25, seed: 1 },
    );
  });

  it("malformed JSON stays in content as written; the interpreter's action is content", () => {
    const broken = '<|action_start|><|plugin|>{"name": "get_weather", "parameters": {<|action_end|>';
    const parsed = internS1.parse(broken);
    expect(parsed.toolCalls).toEqual([]);
    expect(parsed.content).toBe(broken);
    expect(parsed.issues.map((issue) => issue.code)).toEqual(["call_invalid"]);
    const code = "<|action_start|><|interpreter|>\n```python\nprint(1)\n```<|action_end|>";
    expect(internS1.parse(code)).toMatchObject({ toolCalls: [], content: code, issues: [] });
  });

  it("a whole call whose <|action_end|> is missing is a call (call_unclosed); output alone names the family", () => {
    const parsed = internS1.parse(`<|action_start|><|plugin|>\n${weather}`);
    expect(parsed.toolCalls.map((c) => c.function.name)).toEqual(["get_weather"]);
    expect(parsed.issues.map((issue) => issue.code)).toEqual(["call_unclosed"]);
    const output = internS1.encode([{ function: { name: "edit_file", arguments: '{"path": "a.py"}' } }]);
    // A text that two families read, each its own call: declined, never a guess.
    const mixed = `${output}\n<tool_call>\n{"name": "list_files", "arguments": {}}\n</tool_call>`;
    expect(detectOutputSyntax(mixed, { tools: TOOLS })).toMatchObject({
      status: "declined",
      reason: "ambiguous",
    });
    expect(detectOutputSyntax(output, { tools: TOOLS })).toMatchObject({
      status: "detected",
      id: "interns1",
      confidence: "certain",
    });
  });
});
