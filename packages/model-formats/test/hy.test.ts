import { describe, expect, it } from "vitest";
import { hySyntax, hyV3, hyV4 } from "../src/families/hy.js";
import { detectToolCallSyntax } from "../src/index.js";
import { expectSplitInvariant } from "./helpers.js";
import { expectRoundTrips } from "./round-trip-property.js";

/*
 * Look-alikes of Hy3's and Hy4's assistant turns, written for these tests: no Hy chat template was found published
 * where the tests could read it. The Hy3 one writes what PrimeIntellect-ai/renderers' `renderers/hy3.py` (commit
 * d427cf74a134d995c463c508fabc215d244d091d), a renderer that mirrors tencent/Hy3's template token for token, writes:
 * the tags built with `.format(HYTK)`, `<think>` always written (empty without reasoning), the content, then the
 * section; strings as they are, other values as `json.dumps(ensure_ascii=False)`. The generation prompt opens
 * `<think>` (reasoning_effort `low` / `high`). The Hy4 one writes vLLM's Hy4-preview shape (tests of `hy_v4`): no
 * `<tool_sep>`, no whitespace inside a call.
 */
function lookAlike(version: "v3" | "v4"): string {
  const afterName = version === "v3" ? "{{ '<tool_sep{}>'.format(HYTK) }}{{ '\\n' }}" : "";
  const between = version === "v3" ? "{{ '\\n' }}" : "";
  return [
    "{%- set HYTK = ':opensource' -%}",
    "{{- '<｜hy_begin_of_sentence{}｜>'.format(HYTK) -}}",
    "{%- for m in messages -%}",
    "{%- if m.role == 'system' -%}{{ m.content }}",
    "{%- elif m.role == 'user' -%}{{ '<｜hy_User{}｜>'.format(HYTK) }}{{ m.content }}",
    "{%- elif m.role == 'assistant' -%}{{ '<｜hy_Assistant{}｜>'.format(HYTK) }}{{ '<think{}>'.format(HYTK) }}",
    "{%- if m.reasoning_content -%}{{ m.reasoning_content }}{%- endif -%}{{ '</think{}>'.format(HYTK) }}",
    "{%- if m.content -%}{{ m.content }}{%- endif -%}",
    "{%- if m.tool_calls -%}{{ '<tool_calls{}>'.format(HYTK) }}{{ '\\n' }}",
    "{%- for tc in m.tool_calls -%}{{ '<tool_call{}>'.format(HYTK) }}{{ tc.function.name }}",
    afterName,
    "{%- for k, v in tc.function.arguments.items() -%}",
    `{{ '<arg_key{}>'.format(HYTK) }}{{ k }}{{ '</arg_key{}>'.format(HYTK) }}${between}`,
    "{{ '<arg_value{}>'.format(HYTK) }}{% if v is string %}{{ v }}{% else %}{{ v | tojson(ensure_ascii=False) }}{% endif %}",
    `{{ '</arg_value{}>'.format(HYTK) }}${between}`,
    "{%- endfor -%}{{ '</tool_call{}>'.format(HYTK) }}{{ '\\n' }}",
    "{%- endfor -%}{{ '</tool_calls{}>'.format(HYTK) }}",
    "{%- endif -%}{{ '<｜hy_eos{}｜>'.format(HYTK) }}",
    "{%- endif -%}",
    "{%- endfor -%}",
    "{%- if add_generation_prompt -%}{{ '<｜hy_Assistant{}｜>'.format(HYTK) }}{{ '<think{}>'.format(HYTK) }}{%- endif -%}",
  ].join("");
}

describe("Hunyuan Hy3 / Hy4 against look-alikes of their templates", () => {
  it("detection finds each by rendering, with the prompt's open <think>", () => {
    expect(detectToolCallSyntax(lookAlike("v3"))).toMatchObject({
      id: "hy-v3",
      module: "@toolcall/model-formats/hy",
      method: "render",
      startInReasoning: true,
      parallelCalls: true,
    });
    expect(detectToolCallSyntax(lookAlike("v4"))).toMatchObject({ id: "hy-v4", method: "render" });
  });

  it("a template that cannot be rendered is found by the tags it builds with .format", () => {
    const raising = (tags: string) => `{{ raise_exception('no') }}{% set HYTK = ':opensource' %}${tags}`;
    expect(
      detectToolCallSyntax(raising("{{ '<tool_sep{}>'.format(HYTK) }}{{ '<arg_key{}>'.format(HYTK) }}")),
    ).toMatchObject({ id: "hy-v3", method: "signature" });
    expect(detectToolCallSyntax(raising("{{ '<arg_key{}>'.format(HYTK) }}"))).toMatchObject({
      id: "hy-v4",
      method: "signature",
    });
  });

  it("Hy3: every generated turn parses and renders back byte for byte", () => {
    expectRoundTrips(
      { template: "", syntax: hyV3, content: true, reasoning: "any", calls: 3 },
      lookAlike("v3"),
    );
  });

  it("Hy4: every generated turn parses and renders back byte for byte", () => {
    expectRoundTrips(
      { template: "", syntax: hyV4, content: true, reasoning: "any", calls: 3 },
      lookAlike("v4"),
    );
  });
});

describe("hySyntax: a checkpoint with another token suffix", () => {
  const mine = hySyntax({ version: "v4", suffix: ":6124c78e" });
  const text =
    "Sure.<tool_calls:6124c78e>\n<tool_call:6124c78e>get_weather\n<arg_key:6124c78e>city</arg_key:6124c78e>\n" +
    "<arg_value:6124c78e>Paris</arg_value:6124c78e>\n</tool_call:6124c78e>\n</tool_calls:6124c78e>";

  it("reads its spelling, in every split, and encodes with it", () => {
    const result = expectSplitInvariant(mine, text, {});
    expect(result.content).toBe("Sure.");
    expect(result.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual([
      ["get_weather", '{"city": "Paris"}'],
    ]);
    expect(mine.encode([{ function: { name: "now", arguments: "{}" } }])).toBe(
      "<tool_calls:6124c78e>\n<tool_call:6124c78e>now</tool_call:6124c78e>\n</tool_calls:6124c78e>",
    );
  });

  it("still reads the bare spelling; the registered syntaxes leave its suffix as text", () => {
    const bare = "<tool_calls><tool_call>now</tool_call></tool_calls>";
    expect(mine.parse(bare).toolCalls.map((c) => c.function.name)).toEqual(["now"]);
    expect(hyV4.parse(text)).toMatchObject({ toolCalls: [], content: text, issues: [] });
  });

  it("a section opened in one spelling is read in it: the other spelling's tags inside are not its tags", () => {
    const mixed = "<tool_calls:opensource><tool_call>now</tool_call></tool_calls:opensource>";
    expect(hyV4.parse(mixed)).toMatchObject({ toolCalls: [], content: mixed });
  });
});
