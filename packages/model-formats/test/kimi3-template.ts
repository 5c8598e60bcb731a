/*
 * A look-alike of Kimi K3's chat template, written for these tests: Moonshot's own template was not reachable (no
 * copy in the template corpus, none in a public repository the search tools hold). It imitates the channels as
 * SGLang's Kimi K3 parsers read them (python/sglang/srt/function_call/kimik3_detector.py, kimik3_format.py, its
 * reasoning parser) and as its structural tag makes the model write them (kimik3_structural_tag.py): the assistant's
 * turn opens `<|open|>think<|sep|>` (the generation prompt writes it), the reply in a response channel, the calls in a
 * tools channel, `tool` / `key` attributes with `&` and `"` escaped, `index` counting from 1, a string value as it is
 * and anything else as `tojson`, an integer's type written `number`, and `<|close|>message<|sep|>` ending each turn.
 * The system and tool turns are this file's own: only the assistant's turn is imitated.
 */
export const KIMI_K3_LOOK_ALIKE = String.raw`{#- look-alike of Kimi K3's XTML chat template, written for these tests -#}
{%- macro attr(s) -%}{{- s | replace('&', '&amp;') | replace('"', '&quot;') -}}{%- endmacro -%}
{%- if tools -%}
{{- '<|open|>system<|sep|># Tools\n' + (tools | tojson) + '<|close|>message<|sep|>' -}}
{%- endif -%}
{%- for message in messages -%}
{%- if message.role == 'assistant' -%}
{{- '<|open|>assistant<|sep|><|open|>think<|sep|>' + (message.reasoning_content or '') + '<|close|>think<|sep|>' -}}
{%- if message.content -%}{{- '<|open|>response<|sep|>' + message.content + '<|close|>response<|sep|>' -}}{%- endif -%}
{%- if message.tool_calls -%}
{{- '<|open|>tools<|sep|>' -}}
{%- for tool_call in message.tool_calls -%}
{{- '<|open|>call tool="' + attr(tool_call.function.name) + '" index="' + (loop.index | string) + '"<|sep|>' -}}
{%- for key, value in tool_call.function.arguments | items -%}
{%- if value is string -%}{%- set kind = 'string' -%}
{%- elif value is boolean -%}{%- set kind = 'boolean' -%}
{%- elif value is none -%}{%- set kind = 'null' -%}
{%- elif value is number -%}{%- set kind = 'number' -%}
{%- elif value is mapping -%}{%- set kind = 'object' -%}
{%- else -%}{%- set kind = 'array' -%}
{%- endif -%}
{{- '<|open|>argument key="' + attr(key) + '" type="' + kind + '"<|sep|>' + (value if value is string else value | tojson) + '<|close|>argument<|sep|>' -}}
{%- endfor -%}
{{- '<|close|>call<|sep|>' -}}
{%- endfor -%}
{{- '<|close|>tools<|sep|>' -}}
{%- endif -%}
{{- '<|close|>message<|sep|>' -}}
{%- elif message.role == 'tool' -%}
{{- '<|open|>tool<|sep|>' + message.content + '<|close|>message<|sep|>' -}}
{%- else -%}
{{- '<|open|>' + message.role + '<|sep|>' + message.content + '<|close|>message<|sep|>' -}}
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}
{{- '<|open|>assistant<|sep|><|open|>think<|sep|>' -}}
{%- endif -%}`;
