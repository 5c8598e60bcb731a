import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectOutputSyntax, detectToolCallSyntax, functionGemma } from "../src/index.js";
import { cutsFor, expectSplitInvariant } from "./helpers.js";
import { itRoundTripsOnTemplate } from "./reference-round-trip.js";
import { type Case, canonical, TOOLS } from "./round-trip-property.js";

/*
 * FunctionGemma's chat template (google/functiongemma-270m-it) is gated and under the Gemma terms, which do not let the
 * repository hold a copy; none is in the project's corpus. The round trip runs on a look-alike written for this test:
 * it imitates how that template writes a model turn's calls, as Google's FunctionGemma guide ("Formatting and best
 * practices", mirrored in MishaNyaCopilot/AI-as-a-Backend-research docs/functiongemma) and vLLM's parser describe
 * them: `<start_function_call>call:NAME{key:<escape>text<escape>,n:42}<end_function_call>`, keys in `dictsort`
 * order, Gemma 4's value syntax with `<escape>` as the quote token. The output cases follow vLLM's tests of its parser
 * (vllm-project/vllm tests/tool_parsers/test_functiongemma_tool_parser.py) without copying them.
 */
const FUNCTION_GEMMA_LOOK_ALIKE = `{#- look-alike of google/functiongemma-270m-it's call writing, written for these tests -#}
{%- macro format_argument(argument) -%}
{%- if argument is string -%}{{- '<escape>' + argument + '<escape>' -}}
{%- elif argument is boolean -%}{{- 'true' if argument else 'false' -}}
{%- elif argument is mapping -%}{{- '{' -}}{%- for key, value in argument | dictsort -%}{{- key + ':' + format_argument(value) -}}{%- if not loop.last -%},{%- endif -%}{%- endfor -%}{{- '}' -}}
{%- elif argument is sequence -%}{{- '[' -}}{%- for item in argument -%}{{- format_argument(item) -}}{%- if not loop.last -%},{%- endif -%}{%- endfor -%}{{- ']' -}}
{%- else -%}{{- argument -}}
{%- endif -%}
{%- endmacro -%}
{{- bos_token -}}
{%- if tools -%}
{{- '<start_of_turn>developer\\nYou are a model that can do function calling with the following functions' -}}
{%- for tool in tools -%}{{- '<start_function_declaration>declaration:' + tool.function.name + '{description:<escape>' + tool.function.description + '<escape>}<end_function_declaration>' -}}{%- endfor -%}
{{- '<end_of_turn>\\n' -}}
{%- endif -%}
{%- for message in messages -%}
{%- if message.role == 'assistant' -%}
{{- '<start_of_turn>model\\n' + (message.content or '') -}}
{%- for tool_call in message.tool_calls or [] -%}
{{- '<start_function_call>call:' + tool_call.function.name + format_argument(tool_call.function.arguments) + '<end_function_call>' -}}
{%- endfor -%}
{{- '<end_of_turn>\\n' -}}
{%- elif message.role == 'tool' -%}
{{- '<start_of_turn>user\\n<start_function_response>response:' + message.content + '<end_function_response><end_of_turn>\\n' -}}
{%- else -%}
{{- '<start_of_turn>' + ('user' if message.role == 'system' else message.role) + '\\n' + message.content + '<end_of_turn>\\n' -}}
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}{{- '<start_of_turn>model\\n' -}}{%- endif -%}`;

/** The template writes keys in `dictsort` order: arguments compare as mappings. */
const sortedKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sortedKeys)
    : value !== null && typeof value === "object"
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
        )
      : value;
const mapping = (args: string) => sortedKeys(JSON.parse(canonical(args)));

const CASE: Case = {
  template: "look-alike of google/functiongemma-270m-it",
  source: FUNCTION_GEMMA_LOOK_ALIKE,
  syntax: functionGemma,
  content: true,
  reasoning: "none",
  calls: 3,
  compare: mapping,
};

describe("FunctionGemma on a look-alike of its template", () => {
  it("is detected by rendering", () => {
    expect(detectToolCallSyntax(FUNCTION_GEMMA_LOOK_ALIKE)).toMatchObject({
      id: "functiongemma",
      method: "render",
      parallelCalls: true,
    });
  });

  itRoundTripsOnTemplate(CASE);
});

describe("FunctionGemma output", () => {
  it.each([
    [
      "one call",
      "<start_function_call>call:get_weather{location:<escape>London<escape>}<end_function_call>",
      null,
      [["get_weather", '{"location": "London"}']],
    ],
    [
      "text, then two calls",
      "Let me check the weather for you. <start_function_call>call:get_weather{location:<escape>San Francisco<escape>,unit:<escape>celsius<escape>}<end_function_call><start_function_call>call:get_time{timezone:<escape>UTC<escape>}<end_function_call>",
      "Let me check the weather for you. ",
      [
        ["get_weather", '{"location": "San Francisco", "unit": "celsius"}'],
        ["get_time", '{"timezone": "UTC"}'],
      ],
    ],
    [
      "typed values, the stop sequence left in",
      "<start_function_call>call:search{limit:10,query:<escape>python<escape>,safe:true}<end_function_call><start_function_response>",
      null,
      [["search", '{"limit": 10, "query": "python", "safe": true}']],
    ],
  ])("%s: at any cut", (_label, output, content, calls) => {
    fc.assert(
      fc.property(cutsFor(output.length), (cuts) => {
        const parsed = expectSplitInvariant(functionGemma, output, {}, [cuts]);
        expect(parsed.issues).toEqual([]);
        expect(parsed.content).toBe(content);
        expect(parsed.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual(calls);
      }),
      { numRuns: 25, seed: 5 },
    );
  });

  it("a call cut short stays in content; a whole one without its closer is a call (call_unclosed)", () => {
    const cut = "<start_function_call>call:get_weather{location:<escape>Lon";
    expect(functionGemma.parse(cut)).toMatchObject({ toolCalls: [], content: cut });
    const open = functionGemma.parse(
      "<start_function_call>call:get_weather{location:<escape>London<escape>}",
    );
    expect(open.toolCalls.map((c) => c.function.arguments)).toEqual(['{"location": "London"}']);
    expect(open.issues.map((i) => i.code)).toEqual(["call_unclosed"]);
  });

  it("a key the tool's schema does not know is told; output alone names the family", () => {
    const text =
      "<start_function_call>call:edit_file{colour:<escape>red<escape>,path:<escape>a.py<escape>}<end_function_call>";
    expect(functionGemma.parse(text, { tools: TOOLS }).issues.map((i) => [i.code, i.parameter])).toEqual([
      ["unknown_parameter", "colour"],
    ]);
    expect(detectOutputSyntax(text)).toMatchObject({
      status: "detected",
      id: "functiongemma",
      confidence: "certain",
    });
  });
});
