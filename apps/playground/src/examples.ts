// What the page shows before anything is pasted: a weather agent's turn, the tool it offers, a Qwen3-style answer
// to parse, and a saved chat with the faults strict providers refuse. Written for the page; no real user's data.
import { type PlaygroundState, REFERENCE_CLOCK } from "./state.js";

/** The template picked when the shared list is there. */
export const DEFAULT_TEMPLATE_NAME = "Qwen-Qwen3-8B";

/** A small ChatML template with Hermes-style calls, for a build without the shared templates. */
export const FALLBACK_TEMPLATE = `{%- if tools %}<|im_start|>system
{% if messages[0].role == 'system' %}{{ messages[0].content }}

{% endif %}# Tools
<tools>
{% for tool in tools %}{{ tool | tojson }}
{% endfor %}</tools><|im_end|>
{% elif messages[0].role == 'system' %}<|im_start|>system
{{ messages[0].content }}<|im_end|>
{% endif %}
{%- for message in messages %}
{%- if message.role == 'user' or (message.role == 'assistant' and not message.tool_calls) %}
<|im_start|>{{ message.role }}
{{ message.content }}<|im_end|>
{%- elif message.role == 'assistant' %}
<|im_start|>assistant
{% if message.content %}{{ message.content }}
{% endif %}
{%- for call in message.tool_calls %}<tool_call>
{"name": "{{ call.function.name }}", "arguments": {{ call.function.arguments | tojson }}}
</tool_call>{% if not loop.last %}
{% endif %}{% endfor %}<|im_end|>
{%- elif message.role == 'tool' %}
<|im_start|>user
<tool_response>
{{ message.content }}
</tool_response><|im_end|>
{%- endif %}
{%- endfor %}
{% if add_generation_prompt %}<|im_start|>assistant
{% endif %}`;

const MESSAGES = [
  { role: "system", content: "You answer questions about the weather." },
  { role: "user", content: "Weather in Paris?" },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      {
        id: "call7Hq2x",
        type: "function",
        function: { name: "get_weather", arguments: '{"city": "Paris", "unit": "celsius"}' },
      },
    ],
  },
  { role: "tool", tool_call_id: "call7Hq2x", content: "18 °C, clear" },
  { role: "assistant", content: "It is 18 °C and clear in Paris." },
  { role: "user", content: "And in Lyon, in fahrenheit?" },
];

const TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "The current weather in a city.",
      parameters: {
        type: "object",
        properties: {
          city: { type: "string", description: "The city's name." },
          unit: { type: "string", enum: ["celsius", "fahrenheit"] },
        },
        required: ["city"],
      },
    },
  },
];

const OUTPUT =
  '<think>\nThe user wants Lyon, in fahrenheit.\n</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Lyon", "unit": "fahrenheit"}}\n</tool_call>';

// A history as agents persist it: a call wrapped in a Markdown fence, one whose arguments are the text "null", a
// Kimi-style id that Anthropic refuses, a tool result that answers no call, and a call left without its result.
const CHAT = [
  { role: "user", content: "List the files, then read the README." },
  {
    role: "assistant",
    content: "",
    tool_calls: [
      {
        id: "functions.list_files:0",
        type: "function",
        function: { name: "list_files", arguments: '```json\n{"path": "."}\n```' },
      },
    ],
  },
  { role: "tool", tool_call_id: "functions.list_files:0", content: "README.md\nsrc/" },
  { role: "tool", tool_call_id: "call_orphan", content: "a result nobody asked for" },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "call_2", type: "function", function: { name: "read_file", arguments: '{"path": "README.md"}' } },
      { id: "call_3", type: "function", function: { name: "get_time", arguments: "null" } },
    ],
  },
  { role: "tool", tool_call_id: "call_2", content: "# Project" },
  { role: "user", content: "Thanks. What time is it?" },
];

const json = (value: unknown): string => JSON.stringify(value, null, 2);

/**
 * The page's starting state; `hasSharedTemplates` says whether the build carries the shared templates (otherwise the
 * fallback template is the user's own).
 *
 * @example
 * defaultState(true).templateName; // "Qwen-Qwen3-8B"
 */
export function defaultState(hasSharedTemplates: boolean): PlaygroundState {
  return {
    tab: "template",
    templateName: hasSharedTemplates ? DEFAULT_TEMPLATE_NAME : null,
    template: hasSharedTemplates ? "" : FALLBACK_TEMPLATE,
    messages: json(MESSAGES),
    tools: json(TOOLS),
    variables: json({ bos_token: "<s>", eos_token: "</s>" }),
    addGenerationPrompt: true,
    now: REFERENCE_CLOCK,
    output: OUTPUT,
    syntax: "auto",
    chat: json(CHAT),
    format: "auto",
    provider: "anthropic",
  };
}
