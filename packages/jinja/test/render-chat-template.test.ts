import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Outcome, PARITY_NOW, renderPythonText, templatesDir } from "../scripts/parity-cases.mjs";
import {
  compileTemplate,
  getCompiledTemplate,
  probeChatTemplate,
  renderChatTemplate,
  safeRenderChatTemplate,
  TemplateError,
} from "../src/index.js";

const read = (name: string) => readFileSync(join(templatesDir, name), "utf8");
const qwenCoder = read("Qwen-Qwen3-Coder-30B-A3B-Instruct.jinja");
const deepSeek = read("deepseek-ai-DeepSeek-V3.1.jinja");

const wire = () => [
  { role: "user", content: "Weather?" },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      {
        id: "call12345",
        type: "function",
        function: {
          name: "get_weather",
          arguments: '{"city": "Paris", "days": 3, "temp": 20.0, "big": 123456789012345678901}',
        },
      },
    ],
  },
  { role: "tool", tool_call_id: "call12345", content: "sunny" },
];

describe("renderChatTemplate", () => {
  it("decodes wire arguments for a template that iterates them, losslessly", () => {
    const text = renderChatTemplate({ template: qwenCoder, messages: wire() });
    expect(text).toContain("<parameter=city>\nParis\n</parameter>");
    expect(text).toContain("<parameter=temp>\n20.0\n</parameter>");
    expect(text).toContain("<parameter=big>\n123456789012345678901\n</parameter>");
  });

  it("keeps the wire string for a template that concatenates it", () => {
    const messages = wire();
    const text = renderChatTemplate({ template: deepSeek, messages });
    expect(text).toContain(
      'get_weather<｜tool▁sep｜>{"city": "Paris", "days": 3, "temp": 20.0, "big": 123456789012345678901}',
    );
  });

  it("never touches the caller's messages", () => {
    const messages = wire();
    const before = JSON.stringify(messages);
    renderChatTemplate({ template: qwenCoder, messages });
    expect(JSON.stringify(messages)).toBe(before);
    expect(
      typeof (messages[1] as { tool_calls: { function: { arguments: unknown } }[] }).tool_calls[0]?.function
        .arguments,
    ).toBe("string");
  });

  it("renders malformed arguments under _raw_arguments instead of crashing", () => {
    const messages = wire();
    const call = (messages[1] as { tool_calls: { function: { arguments: string } }[] }).tool_calls[0];
    if (call) call.function.arguments = "{not json";
    expect(renderChatTemplate({ template: qwenCoder, messages })).toContain(
      "<parameter=_raw_arguments>\n{not json\n</parameter>",
    );
  });

  it("renders arguments a caller gives as a mapping as given, as transformers does", () => {
    const messages = (args: unknown) => [
      { role: "user", content: "Weather?" },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "call12345", type: "function", function: { name: "get_weather", arguments: args } },
        ],
      },
      { role: "tool", tool_call_id: "call12345", content: "sunny" },
    ];
    const mapping = { city: "Paris", days: 3 };
    const python = (template: string) =>
      renderPythonText(
        JSON.stringify([
          { template, messages: messages(mapping), tools: null, add_generation_prompt: false, kwargs: {} },
        ]),
      )[0] as Outcome;
    for (const template of [deepSeek, qwenCoder]) {
      const ours = safeRenderChatTemplate({ template, messages: messages(mapping), now: PARITY_NOW });
      expect(ours.ok ? { ok: ours.text } : { error: ours.error.pythonText }).toEqual(python(template));
    }
    // The probe's form still applies to wire text: DeepSeek gets the JSON string it concatenates.
    expect(renderChatTemplate({ template: deepSeek, messages: messages('{"city": "Paris"}') })).toContain(
      '{"city": "Paris"}',
    );
    // DeepSeek concatenates the arguments: a mapping raises there, in Python and here alike.
    expect(python(deepSeek)).toEqual({ error: 'TypeError: can only concatenate str (not "dict") to str' });
  });

  it("passes variables and the clock", () => {
    const text = renderChatTemplate({
      template: "{{ bos_token }}{{ strftime_now('%Y-%m-%d') }}{{ add_generation_prompt }}{{ tools }}",
      messages: [],
      variables: { bos_token: "<s>" },
      now: new Date(2024, 6, 9),
    });
    expect(text).toBe("<s>2024-07-09FalseNone");
  });

  it("raises a typed error with Python's message", () => {
    const template = "{{ raise_exception('Only user and assistant roles are supported!') }}";
    expect(() => renderChatTemplate({ template, messages: [] })).toThrowError(TemplateError);
    const result = safeRenderChatTemplate({ template, messages: [] });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.type).toBe("TemplateError");
      expect(result.error.pythonText).toBe("TemplateError: Only user and assistant roles are supported!");
    }
  });

  it("reports syntax errors as TemplateSyntaxError", () => {
    const result = safeRenderChatTemplate({ template: "{% if %}", messages: [] });
    expect(result.ok || result.error.type).toBe("TemplateSyntaxError");
    expect(() => compileTemplate("{% endfor %}")).toThrow(TemplateError);
  });

  it("compiles a source once", () => {
    expect(getCompiledTemplate(qwenCoder)).toBe(getCompiledTemplate(qwenCoder));
  });
});

describe("probeChatTemplate", () => {
  it("finds the argument form by rendering, not by name", () => {
    expect(probeChatTemplate(qwenCoder).argumentsForm).toBe("mapping");
    expect(probeChatTemplate(deepSeek).argumentsForm).toBe("string");
    expect(probeChatTemplate(read("deepseek-ai-DeepSeek-V3.jinja")).argumentsForm).toBe("string");
    expect(probeChatTemplate(read("zai-org-GLM-4.5.jinja")).argumentsForm).toBe("mapping");
  });

  it("finds what each template renders", () => {
    expect(probeChatTemplate(qwenCoder)).toEqual({
      argumentsForm: "mapping",
      toolCalls: true,
      parallelToolCalls: true,
      toolCallIds: false,
      toolResponses: true,
      systemRole: true,
      nullContent: true,
      tools: true,
    });
    const llama = probeChatTemplate(read("meta-llama-Llama-3.1-8B-Instruct.jinja"));
    expect(llama.parallelToolCalls).toBe(false);
    expect(llama.toolCalls).toBe(true);
    const gemma3 = probeChatTemplate(read("google-gemma-3-it.jinja"));
    expect(gemma3.toolCalls).toBe(false);
    expect(gemma3.tools).toBe(false);
    expect(probeChatTemplate(read("mistralai-Mistral-Small-3.2-24B-Instruct-2506.jinja")).toolCallIds).toBe(
      true,
    );
    expect(probeChatTemplate(read("Qwen-Qwen3-0.6B.jinja")).nullContent).toBe(false);
    expect(probeChatTemplate(read("openai-gpt-oss-120b.jinja")).parallelToolCalls).toBe(false);
    expect(probeChatTemplate(read("deepseek-ai-DeepSeek-V3.jinja")).tools).toBe(false);
  });
});
