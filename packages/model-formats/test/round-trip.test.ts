import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  commandR7b,
  deepseekV3,
  deepseekV31,
  glm45,
  glm47,
  harmony,
  hermes,
  kimiK2,
  llama3Json,
  mistralArgs,
  mistralCallIdSyntax,
  mistralList,
  roundTrip,
} from "../src/index.js";
import { type Case, expectRoundTrips } from "./round-trip-property.js";

// Templates are read from the shared material beside the repository, never copied into it.
const templates = resolve(import.meta.dirname, "../../../../shared/templates");
const read = (name: string) => readFileSync(join(templates, `${name}.jinja`), "utf8");

const nineChars = (_name: string, index: number) => `call${index}abcd`.slice(0, 9);
const kimiIds = (name: string, index: number) => `functions.${name}:${index}`;

/** Every template of ../shared/templates that writes a syntax of this package, and what it keeps. */
const CASES: Case[] = [
  { template: "Qwen-Qwen2.5-7B-Instruct", syntax: hermes, content: true, reasoning: "none", calls: 3 },
  { template: "Qwen-Qwen3-8B", syntax: hermes, content: true, reasoning: "any", calls: 3 },
  {
    template: "Qwen-Qwen3-0.6B",
    syntax: hermes,
    content: true,
    reasoning: "any",
    calls: 3,
    exceptions: 'raises on `content: null` beside calls: the round trip renders with `content: ""`',
  },
  {
    template: "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use",
    syntax: hermes,
    content: false,
    reasoning: "none",
    calls: 3,
    exceptions: "drops the content of a message with calls",
  },
  {
    template: "NousResearch-Hermes-3-Llama-3.1-8B-tool_use",
    syntax: hermes,
    content: false,
    reasoning: "none",
    calls: 3,
    exceptions: "drops the content of a message with calls",
  },
  {
    template: "zai-org-GLM-4.5",
    syntax: glm45,
    content: true,
    reasoning: "any",
    calls: 3,
    exceptions: 'strips content and reasoning; prints None for `content: null` (the round trip renders "")',
  },
  {
    template: "zai-org-GLM-4.6V-Flash",
    syntax: glm45,
    content: true,
    reasoning: "any",
    calls: 3,
    exceptions: "as GLM-4.5",
  },
  {
    template: "zai-org-GLM-4.7-Flash",
    syntax: glm47,
    content: true,
    reasoning: "non-empty",
    calls: 3,
    exceptions: "renders an empty reasoning as `</think>` alone while the generation prompt opens `<think>`",
  },
  {
    template: "zai-org-GLM-5.1",
    syntax: glm47,
    content: true,
    reasoning: "non-empty",
    calls: 3,
    exceptions: "as GLM-4.7",
  },
  {
    template: "moonshotai-Kimi-K2-Instruct",
    syntax: kimiK2,
    content: true,
    reasoning: "none",
    calls: 3,
    ids: kimiIds,
  },
  {
    template: "moonshotai-Kimi-K2-Instruct.rev-2025-07-15.crlf",
    syntax: kimiK2,
    content: true,
    reasoning: "none",
    calls: 3,
    ids: kimiIds,
    exceptions: "writes its own ids, functions.NAME:INDEX, counting across the conversation",
  },
  {
    template: "moonshotai-Kimi-K2-Thinking",
    syntax: kimiK2,
    content: true,
    reasoning: "any",
    calls: 3,
    ids: kimiIds,
  },
  {
    template: "moonshotai-Kimi-K2.5",
    syntax: kimiK2,
    content: true,
    reasoning: "any",
    calls: 3,
    ids: kimiIds,
  },
  {
    template: "deepseek-ai-DeepSeek-V3",
    syntax: deepseekV3,
    content: false,
    reasoning: "none",
    calls: 2,
    exceptions:
      "renders calls only with `content: null`; closes the section (<｜tool▁calls▁end｜>) only after a second call, and after every later call again",
  },
  {
    template: "deepseek-ai-DeepSeek-R1-0528-Qwen3-8B",
    syntax: deepseekV3,
    content: true,
    reasoning: "none",
    calls: 3,
    exceptions: "renders no generation prompt of its own and drops reasoning",
  },
  {
    template: "deepseek-ai-DeepSeek-V3.1",
    syntax: deepseekV31,
    content: true,
    reasoning: "none",
    calls: 3,
    exceptions: "drops reasoning (writes </think> alone): rendered with thinking off",
  },
  {
    template: "mistralai-Mistral-Nemo-Instruct-2407",
    syntax: mistralList,
    content: false,
    reasoning: "none",
    calls: 3,
    ids: nineChars,
    noSystem: true,
    exceptions:
      "drops content beside calls; ids must be 9 characters; renders the system message only inside the last message, so a conversation that goes on loses it",
  },
  {
    template: "mistralai-Mistral-Small-3.1-24B-Instruct-2503",
    syntax: mistralList,
    content: false,
    reasoning: "none",
    calls: 3,
    ids: nineChars,
    exceptions: "drops content beside calls; writes only an id's last 9 characters",
  },
  {
    template: "mistralai-Mistral-Small-3.2-24B-Instruct-2506",
    syntax: mistralCallIdSyntax,
    content: false,
    reasoning: "none",
    calls: 3,
    ids: nineChars,
    exceptions: "drops content beside calls",
  },
  {
    template: "mistralai-Ministral-3-14B-Reasoning-2512",
    syntax: mistralArgs,
    content: true,
    reasoning: "none",
    calls: 3,
    exceptions: "reads reasoning from content chunks, not reasoning_content",
  },
  {
    template: "mistralai-Devstral-Small-2-24B-Instruct-2512",
    syntax: mistralArgs,
    content: true,
    reasoning: "none",
    calls: 3,
  },
  {
    template: "meta-llama-Llama-3.1-8B-Instruct",
    syntax: llama3Json,
    content: false,
    reasoning: "none",
    calls: 1,
    exceptions: "one call per message (raises on more); drops content beside it",
  },
  {
    template: "meta-llama-Llama-3.2-3B-Instruct",
    syntax: llama3Json,
    content: false,
    reasoning: "none",
    calls: 1,
    exceptions: "as Llama 3.1",
  },
  {
    template: "meta-llama-Llama-3.3-70B-Instruct",
    syntax: llama3Json,
    content: false,
    reasoning: "none",
    calls: 1,
    exceptions: "as Llama 3.1",
  },
  {
    template: "openai-gpt-oss-120b",
    syntax: harmony,
    content: false,
    reasoning: "any",
    calls: 1,
    exceptions: "renders only a message's first call, and content beside a call as analysis",
  },
];

describe("round trip: parse the model's output, render it back with the template, byte for byte", () => {
  for (const testCase of CASES) {
    it(`${testCase.template} (${testCase.syntax.id})${testCase.exceptions ? `: ${testCase.exceptions}` : ""}`, () => {
      expectRoundTrips(testCase, testCase.source ?? read(testCase.template));
    });
  }
});

describe("round trip: what the templates drop or rewrite, found at its offset", () => {
  const tools = [
    {
      type: "function",
      function: {
        name: "get_weather",
        description: "w",
        parameters: { type: "object", properties: { city: { type: "string" } } },
      },
    },
  ];
  const user = [{ role: "user", content: "Weather in Paris?" }];
  const check = (name: string, output: string, messages: unknown[] = user) =>
    roundTrip({ template: read(name), output, messages, tools });
  const call = (city: string) =>
    `<tool_call>\n{"name": "get_weather", "arguments": {"city": "${city}"}}\n</tool_call>`;

  it("Qwen3 keeps the last turn's reasoning and compact arguments (passed as the wire text): identical", () => {
    const spaced = check("Qwen-Qwen3-8B", `<think>\nLet me look.\n</think>\n\nSure.\n${call("Paris")}`);
    expect(spaced).toMatchObject({
      ok: true,
      firstDifference: -1,
      syntax: "hermes",
      argumentsForm: "mapping",
    });
    // The template writes the envelope itself (`{"name": "…", "arguments": `), and a string's bytes as they are.
    const compact = check(
      "Qwen-Qwen3-8B",
      '<think>\nLet me look.\n</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city":"Paris"}}\n</tool_call>',
    );
    expect(compact).toMatchObject({ ok: true, argumentsForm: "string" });
    const compactEnvelope =
      '<think>\nLet me look.\n</think>\n\n<tool_call>\n{"name":"get_weather","arguments":{"city":"Paris"}}\n</tool_call>';
    const envelope = check("Qwen-Qwen3-8B", compactEnvelope);
    expect(envelope.ok).toBe(false);
    expect(compactEnvelope.slice(envelope.firstDifference)).toMatch(/^"get_weather"/);
  });

  it("Qwen2.5 re-serialises arguments with tojson: compact JSON differs where the arguments start", () => {
    const output = '<tool_call>\n{"name": "get_weather", "arguments": {"city":"Paris"}}\n</tool_call>';
    const result = check("Qwen-Qwen2.5-7B-Instruct", output);
    expect(result.ok).toBe(false);
    expect(output.slice(result.firstDifference)).toBe('"Paris"}}\n</tool_call>');
  });

  it("QwQ, DeepSeek R1 and its distills open <think> in the prompt but render past turns without reasoning", () => {
    const qwq = check("Qwen-QwQ-32B", `Okay, the user wants the weather.\n</think>\n\n${call("Paris")}`);
    expect(qwq).toMatchObject({ ok: false, firstDifference: 0, inPrompt: true });
    const r1 = check(
      "deepseek-ai-DeepSeek-R1",
      'The user wants the weather.\n</think>\n\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    );
    expect(r1).toMatchObject({ ok: false, firstDifference: 0, inPrompt: true, syntax: "deepseek-v3" });
    const distill = check(
      "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B",
      'Let me see.\n</think>\n\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    );
    expect(distill).toMatchObject({ ok: false, firstDifference: 0, inPrompt: true, syntax: "deepseek-v3" });
  });

  it("Hermes 3 and DeepSeek V3 drop content written beside calls", () => {
    expect(check("NousResearch-Hermes-3-Llama-3.1-8B-tool_use", `Sure.\n${call("Paris")}`)).toMatchObject({
      ok: false,
      firstDifference: 0,
    });
    const v3 = check(
      "deepseek-ai-DeepSeek-V3",
      'Let me check.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    );
    // The first byte that differs: both texts go on with `<｜` there (a section, an end of sentence).
    expect(v3).toMatchObject({ ok: false, firstDifference: "Let me check.<｜".length });
  });

  it("gpt-oss: the template writes the recipient first and re-serialises arguments, and renders one call", () => {
    const cookbook =
      '<|channel|>analysis<|message|>Need to use function get_weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}<|call|>';
    const result = check("openai-gpt-oss-120b", cookbook);
    expect(result.ok).toBe(false);
    expect(cookbook.slice(result.firstDifference)).toMatch(/^<\|channel\|>commentary to=/);
    const two =
      ' to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Paris"}<|call|><|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Lyon"}<|call|>';
    const parallel = check("openai-gpt-oss-120b", two);
    expect(parallel.parsed?.toolCalls).toHaveLength(2);
    expect(two.slice(parallel.firstDifference)).toMatch(/^<\|start\|>assistant to=/);
  });

  it("GLM-4.7 renders an empty reasoning as </think> alone", () => {
    const result = check(
      "zai-org-GLM-4.7-Flash",
      "</think><tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>",
    );
    expect(result).toMatchObject({ ok: false, firstDifference: 0, inPrompt: true, syntax: "glm47" });
  });

  it("Kimi K2's first template renumbers ids; Llama 3.1 raises on two calls; Nemo loses the system message", () => {
    const kimi = check(
      "moonshotai-Kimi-K2-Instruct.rev-2025-07-15.crlf",
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:5<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
    );
    expect(kimi.ok).toBe(false);
    expect(kimi.parsed?.toolCalls[0]?.id).toBe("functions.get_weather:5");
    const llama = check(
      "meta-llama-Llama-3.1-8B-Instruct",
      '{"name": "get_weather", "parameters": {"city": "Paris"}}; {"name": "get_weather", "parameters": {"city": "Lyon"}}',
    );
    expect(llama).toMatchObject({
      ok: false,
      syntax: "llama3-json",
      error: "TemplateError: This model only supports single tool-calls at once!",
    });
    const nemo = check(
      "mistralai-Mistral-Nemo-Instruct-2407",
      '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "a1b2c3d4e"}]',
      [{ role: "system", content: "Be brief." }, ...user],
    );
    expect(nemo.ok).toBe(false);
  });

  it("detects the syntax when none is given, and says where one it does not implement lives", () => {
    expect(
      check(
        "zai-org-GLM-4.5",
        "\n<think></think>\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>",
      ),
    ).toMatchObject({
      ok: true,
      syntax: "glm45",
    });
    const coder = check(
      "Qwen-Qwen3-Coder-30B-A3B-Instruct",
      "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>",
    );
    expect(coder).toMatchObject({ ok: true, syntax: "qwen3-coder" });
    const gemma = check(
      "google-gemma-4-31B-it",
      '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>',
    );
    // Gemma 4's generation prompt writes the empty thought (`<|channel>thought\n<channel|>`) that its history drops:
    // the call reads back, and the difference is the prompt's.
    expect(gemma).toMatchObject({ ok: false, syntax: "gemma4", firstDifference: 0, inPrompt: true });
    expect(gemma.parsed?.toolCalls[0]?.function).toEqual({
      name: "get_weather",
      arguments: '{"city": "Paris"}',
    });
    expect(check("google-gemma-3-it", "Hello").error).toContain("no known tool-call syntax");
  });
});

describe("round trip: the end of a turn", () => {
  // A look-alike of Command R7B's turn endings, written for this test (the real template is not in the corpus):
  // an action ends with <|END_ACTION|>, an answer with <|END_RESPONSE|>, both then with <|END_OF_TURN_TOKEN|>.
  const template = [
    "{% for m in messages %}<|START_OF_TURN_TOKEN|>",
    "{% if m.role == 'user' %}<|USER_TOKEN|>{{ m.content }}<|END_OF_TURN_TOKEN|>",
    '{% elif m.tool_calls %}<|CHATBOT_TOKEN|><|START_ACTION|>{{ "[\\n" }}',
    '{% for tc in m.tool_calls %}    {"tool_call_id": "{{ loop.index0 }}", "tool_name": "{{ tc.function.name }}", ',
    '"parameters": {{ tc.function.arguments | tojson }}}{{ ",\\n" if not loop.last }}{% endfor %}',
    '{{ "\\n]" }}<|END_ACTION|><|END_OF_TURN_TOKEN|>',
    "{% else %}<|CHATBOT_TOKEN|><|START_RESPONSE|>{{ m.content }}<|END_RESPONSE|><|END_OF_TURN_TOKEN|>",
    "{% endif %}{% endfor %}{% if add_generation_prompt %}<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>{% endif %}",
  ].join("");
  const messages = [{ role: "user", content: "Weather in Paris?" }];
  const action =
    '<|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}}\n]<|END_ACTION|>';
  const check = (output: string) => roundTrip({ template, output, messages, syntax: commandR7b });

  it("a turn of calls may end differently from a turn of text: only the end they share may be missing", () => {
    expect(check(action)).toMatchObject({ ok: true, firstDifference: -1 });
    expect(check(`${action}<|END_OF_TURN_TOKEN|>`)).toMatchObject({ ok: true, firstDifference: -1 });
    expect(check("<|START_RESPONSE|>Sunny.<|END_RESPONSE|>")).toMatchObject({ ok: true });
    expect(check("<|START_RESPONSE|>Sunny.")).toMatchObject({ ok: true });
  });

  it("a marker cut in its middle is a difference, not a missing end of turn", () => {
    const cut = action.slice(0, -2);
    const result = check(cut);
    expect(result.parsed?.toolCalls).toHaveLength(1);
    expect(result).toMatchObject({ ok: false, firstDifference: cut.length });
  });
});
