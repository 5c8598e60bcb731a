/*
 * Look-alike chat templates: short Jinja templates written for the tests, each imitating one published template that
 * the repository does not hold (a real template stays outside it, as the corpus does). Each renders what the tests
 * render (a system message, a user message, then the assistant's turn: content, reasoning where the real one keeps
 * it, one or more calls, and the tools in the system turn) byte for byte as the real template does, and drops what
 * the real one drops, and is detected and probed (@toolcall/jinja's `probeChatTemplate`) as the real one is; other
 * conversations (no system message, tool results, past turns) are not imitated unless a note says so. Where the real
 * template is at hand (../shared/templates/families or $TOOLCALL_TEMPLATES), round-trip-families-guard.test.ts holds each
 * look-alike to the real one on all of that.
 */

/**
 * Seed-OSS (`ByteDance-Seed/Seed-OSS-36B-Instruct`'s chat template; published in llama.cpp's
 * `models/templates/ByteDance-Seed-OSS.jinja`): tools as Python signatures, calls as
 * `<seed:tool_call>\n<function=NAME>\n<parameter=K>V</parameter>\n…`, non-string values written by `| string`
 * (Python's `str`), reasoning only when it holds more than whitespace.
 *
 * @example
 * safeRenderChatTemplate({ template: SEED_OSS_LOOK_ALIKE, messages, tools });
 */
export const SEED_OSS_LOOK_ALIKE = String.raw`
{%- set py = {'string': 'str', 'number': 'int', 'integer': 'int', 'boolean': 'bool', 'array': 'list'} %}
{%- if messages[0].role == 'system' %}{{- '<seed:bos>system\n' + messages[0].content }}{%- endif %}
{%- for tool in tools or [] %}
  {%- set f = tool.function %}
  {{- '\n\nFunction:\ndef ' + f.name + '(' }}
  {%- for name, spec in f.parameters.properties | items %}
    {{- name + ': ' + py.get(spec.type or '', 'Any') + ('' if loop.last else ',') }}
  {%- endfor %}
  {{- '):\n    """\n    ' + f.description | trim + '\n\n' }}
  {%- if f.parameters.properties %}
    {{- '    Args:' }}
    {%- for name, spec in f.parameters.properties | items %}
      {%- set need = '必填' if name in (f.parameters.required or []) else '选填' %}
      {{- '\n    - ' + name + ' (' + py.get(spec.type or '', 'Any') + ') [' + need + ']: ' + (spec.description or '') }}
    {%- endfor %}
  {%- endif %}
  {{- '\n\n    """' }}
{%- endfor %}
{%- if tools %}
  {{- '\n工具调用请遵循如下格式:\n<seed:tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>value_1</parameter>\n<parameter=example_parameter_2>This is the value for the second parameter\nthat can span\nmultiple lines</parameter>\n</function>\n</seed:tool_call>\n' }}
{%- endif %}
{%- if messages[0].role == 'system' or tools %}{{- '<seed:eos>' }}{%- endif %}
{%- set turns = messages[1:] if messages[0].role == 'system' else messages %}
{%- for m in turns %}
  {%- if m.role != 'assistant' %}
    {{- '<seed:bos>' + m.role + '\n' + m.content + '<seed:eos>' }}
  {%- else %}
    {{- '<seed:bos>assistant' }}
    {%- if m.reasoning_content is string and m.reasoning_content | trim %}
      {{- '\n<seed:think>' + m.reasoning_content | trim + '</seed:think>' }}
    {%- endif %}
    {%- set text = m.content | trim if m.content is string else '' %}
    {%- if m.tool_calls %}
      {{- '\n' + text + '\n' if text else '' }}
      {%- for call in m.tool_calls %}
        {{- '\n<seed:tool_call>\n<function=' + call.function.name + '>\n' }}
        {%- for k, v in call.function.arguments | items %}
          {{- '<parameter=' + k + '>' + (v if v is string else v | string) + '</parameter>\n' }}
        {%- endfor %}
        {{- '</function>\n</seed:tool_call>' }}
      {%- endfor %}
      {{- '<seed:eos>' }}
    {%- elif text %}
      {{- '\n' + text + '<seed:eos>' }}
    {%- endif %}
  {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}{{- '<seed:bos>assistant\n' }}{%- endif %}`;

const BACKTICK = "`";

/**
 * Functionary v3.1 (`meetkai/functionary-medium-v3.1`'s chat template; published in llama.cpp's
 * `models/templates/meetkai-functionary-medium-v3.1.jinja`): each tool as a line of prose and its JSON (HTML-escaped,
 * as the real template's `| safe` concatenation leaves it), calls as `<function=NAME>{…}</function>` with the
 * arguments' wire text concatenated as it is (the real template raises on a mapping), a turn with calls ended by
 * `<|eom_id|>`; reasoning is not rendered.
 *
 * @example
 * safeRenderChatTemplate({ template: FUNCTIONARY_V31_LOOK_ALIKE, messages, tools });
 */
export const FUNCTIONARY_V31_LOOK_ALIKE = String.raw`
{{- bos_token + '<|start_header_id|>system<|end_header_id|>\n\n\nCutting Knowledge Date: December 2023\n\n' }}
{%- if tools %}
  {{- '\nYou have access to the following functions:\n\n' }}
  {%- for tool in tools %}
    {%- set f = tool.function or tool %}
    {{- "Use the function '" }}{{- f.name | e }}{{- "' to '" }}{{- f.description | e }}{{- "'\n" }}
    {{- f | tojson | e }}{{- '\n\n' }}
  {%- endfor %}
  {{- '\nThink very carefully before calling functions.\nIf a you choose to call a function ONLY reply in the following format:\n<{start_tag}={function_name}>{parameters}{end_tag}\nwhere\n\nstart_tag => ${BACKTICK}<function${BACKTICK}\nparameters => a JSON dict with the function argument name as key and function argument value as value.\nend_tag => ${BACKTICK}</function>${BACKTICK}\n\nHere is an example,\n<function=example_function_name>{"example_name": "example_value"}</function>\n\nReminder:\n- If looking for real time information use relevant functions before falling back to brave_search\n- Function calls MUST follow the specified format, start with <function= and end with </function>\n- Required parameters MUST be specified\n- Only call one function at a time\n- Put the entire function call reply on one line\n\n' }}
{%- endif %}
{{- '<|eot_id|>' }}
{%- for m in messages %}
  {%- if m.role != 'assistant' %}
    {{- '<|start_header_id|>' + m.role + '<|end_header_id|>\n\n' + m.content + '<|eot_id|>' }}
  {%- else %}
    {{- '<|start_header_id|>assistant<|end_header_id|>\n\n' + (m.content or '') }}
    {%- for call in m.tool_calls or [] %}
      {{- '<function=' + call.function.name + '>' + call.function.arguments + '</function>' }}
    {%- endfor %}
    {{- '<|eom_id|>' if m.tool_calls else '<|eot_id|>' }}
  {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}{{- '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{%- endif %}`;

/**
 * Functionary v3.2 (`meetkai/functionary-medium-v3.2`'s chat template; published in llama.cpp's
 * `models/templates/meetkai-functionary-medium-v3.2.jinja`): tools as a TypeScript namespace (the types the tests'
 * tools use: scalars, an object without properties, an array without items, a union it writes as nothing), messages
 * addressed `>>>all\n` (content) and `>>>NAME\n` (a call, its arguments as the wire text), a generation prompt ending
 * in `>>>`; reasoning is not rendered.
 *
 * @example
 * safeRenderChatTemplate({ template: FUNCTIONARY_V32_LOOK_ALIKE, messages, tools });
 */
export const FUNCTIONARY_V32_LOOK_ALIKE = String.raw`
{{- bos_token + '<|start_header_id|>system<|end_header_id|>\n\nYou are capable of executing available function(s) if required.\nOnly execute function(s) when absolutely necessary.\nAsk for the required input to:recipient==all\nUse JSON for function arguments.\nRespond in this format:\n>>>${"$"}{recipient}\n${"$"}{content}\nAvailable functions:\n// Supported function definitions that should be called when necessary.\nnamespace functions {\n\n' }}
{%- for tool in tools or [] %}
  {%- set f = tool.function or tool %}
  {{- '// ' + f.description + '\ntype ' + f.name }}
  {%- if f.parameters.properties %}
    {{- ' = (_: {' }}
    {%- for name, spec in f.parameters.properties | items %}
      {%- set declared = '\n' + name + ('' if name in (f.parameters.required or []) else '?') + ': ' %}
      {%- if spec.type == 'object' %}
        {{- declared + '{\n},' }}
      {%- elif spec.type == 'array' %}
        {{- declared + '[],' }}
      {%- else %}
        {{- declared + ('number' if spec.type == 'integer' else spec.type or '') + ',' }}
      {%- endif %}
    {%- endfor %}
    {{- '\n}) => any;\n\n' }}
  {%- else %}
    {{- ' = () => any;\n\n' }}
  {%- endif %}
{%- endfor %}
{{- '} // namespace functions<|eot_id|>' }}
{%- for m in messages %}
  {%- if m.role != 'assistant' %}
    {{- '<|start_header_id|>' + m.role + '<|end_header_id|>\n\n' + m.content + '<|eot_id|>' }}
  {%- else %}
    {{- '<|start_header_id|>assistant<|end_header_id|>\n\n' }}
    {%- if m.content %}{{- '>>>all\n' + m.content }}{%- endif %}
    {%- for call in m.tool_calls or [] %}
      {{- '>>>' + call.function.name + '\n' + call.function.arguments }}
    {%- endfor %}
    {{- '<|eot_id|>' }}
  {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}{{- '<|start_header_id|>assistant<|end_header_id|>\n\n>>>' }}{%- endif %}`;

/**
 * Apertus (`swiss-ai/Apertus-8B-Instruct-2509`'s chat template, as published on Hugging Face; llama.cpp's
 * `models/templates/Apertus-8B-Instruct.jinja` carries three edits of its own): tools as bare function objects
 * (`tool.name`; OpenAI's `{ type, function }` envelope raises) written as TypeScript types in the developer turn,
 * calls as `<|tools_prefix|>[{"NAME": {…}}, …]<|tools_suffix|>` after the content with the arguments' wire text
 * concatenated as it is (a mapping raises), `content: null` raising, the last assistant turn left open; reasoning is
 * not rendered (the real template reads it only from `content.blocks`).
 *
 * @example
 * safeRenderChatTemplate({ template: APERTUS_LOOK_ALIKE, messages, tools });
 */
export const APERTUS_LOOK_ALIKE = String.raw`
{%- set ts = {'string': 'string', 'number': 'number', 'integer': 'number', 'boolean': 'boolean', 'object': 'object', 'array': 'any[]'} %}
{{- bos_token }}
{%- if messages[0].role == 'system' %}{{- '<|system_start|>' + messages[0].content + '<|system_end|>' }}{%- endif %}
{{- '<|developer_start|>Deliberation: ' + ('enabled' if enable_thinking else 'disabled') + '\n' }}
{%- if tools %}
  {{- 'Tool Capabilities:\n' }}
  {%- for tool in tools %}
    {%- set p = tool.parameters %}
    {{- '// ' + tool.description + '\ntype ' + tool.name + ' = ' }}
    {%- if p and p.properties %}
      {{- '(_: {\n' }}
      {%- for name, spec in p.properties | items %}
        {{- name + ('' if name in (p.required or []) else '?') + ': ' + ts.get(spec.type or '', 'any') }}
        {{- '\n' if loop.last else ',\n' }}
      {%- endfor %}
      {{- '}) => any;' }}
    {%- else %}
      {{- '() => any;' }}
    {%- endif %}
    {{- '' if loop.last else '\n' }}
  {%- endfor %}
{%- else %}
  {{- 'Tool Capabilities: disabled' }}
{%- endif %}
{{- '<|developer_end|>' }}
{%- set turns = messages[1:] if messages[0].role == 'system' else messages %}
{%- for m in turns %}
  {%- if m.role == 'user' %}
    {{- '<|user_start|>' + m.content + '<|user_end|>' }}
  {%- else %}
    {%- if m.content is not string %}{{- raise_exception('Invalid assistant content') }}{%- endif %}
    {{- '<|assistant_start|>' + m.content }}
    {%- if m.tool_calls %}
      {{- '<|tools_prefix|>[' }}
      {%- for call in m.tool_calls %}
        {{- '{"' + call.function.name + '": ' + call.function.arguments + '}' + ('' if loop.last else ', ') }}
      {%- endfor %}
      {{- ']<|tools_suffix|>' }}
    {%- endif %}
  {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}{{- '<|assistant_start|>' }}{%- endif %}`;

/**
 * Hunyuan-A13B (vLLM's `examples/tool_chat_template_hunyuan_a13b.jinja`, for `tencent/Hunyuan-A13B-Instruct`): the
 * system message inside a fixed Chinese instruction with the tools as JSON and the clock's time and weekday, calls
 * as `<tool_calls>[{"name": …, "arguments": {…}}, …]</tool_calls>` after the content, no generation prompt;
 * reasoning is not rendered, and content null beside calls raises, as it does in the real template. A conversation
 * opening with the user's message and tool results are imitated too (the probes render them). Only the real
 * template's rendering with tools is imitated (the tests always give them).
 *
 * @example
 * safeRenderChatTemplate({ template: HUNYUAN_LOOK_ALIKE, messages, tools });
 */
export const HUNYUAN_LOOK_ALIKE = String.raw`
{%- set weekdays = {'Monday': '星期一', 'Tuesday': '星期二', 'Wednesday': '星期三', 'Thursday': '星期四', 'Friday': '星期五', 'Saturday': '星期六', 'Sunday': '星期日'} %}
{%- set now = strftime_now('%Y-%m-%d %H:%M:%S') + ' ' + weekdays[strftime_now('%A')] %}
{%- set answer = '如果你决定返回函数调用，请将其格式化为<tool_calls>[{"name": "func_name1", "arguments": {"argument1": "value1", "argument2": "value2"}},...]</tool_calls>，不得包含其他文本。' %}
{%- for m in messages %}
  {%- if loop.first and m.role in ['system', 'user'] %}
    {{- '<|startoftext|>你是一位函数组合专家。你会得到一个问题和一组可能的函数。根据问题，你需要进行一个或多个函数/工具调用以实现目的。\n如果没有一个函数可以使用，请直接使用自然语言回复用户，以助手：开头。\n如果给定的问题缺少函数所需的参数，请使用自然语言进行提问，向用户询问必要信息，以助手：开头。\n如果调用结果已经足够回答用户问题，请对历史结果进行总结，使用自然语言回复用户，以助手：开头。\n你应该只在工具调用部分返回函数调用。如果你决定调用任何函数，你必须将其格式化为<tool_calls>[{"name": "func_name1", "arguments": {"argument1": "value1", "argument2": "value2"}},...]</tool_calls>。你不应该在回复中包含任何其他文本。以下是你可以调用的函数列表，格式为JSON。\n\n' + tools | tojson + '\n' }}
    {%- if m.role == 'system' %}
      {{- '\n额外要求：\n' + m.content + '\n\n' + answer + '如果额外要求里有格式要求，请忽略，以此处为准。\n否则，请参考开头说的三种情况，以助手：开头进行回复。\n\n如果额外要求里有时间信息，就以额外要求里的时间为准，否则，参考当前时间：' + now + '<|extra_4|>' }}
    {%- else %}
      {{- '\n' + answer + '\n否则，请参考开头说的三种情况，以助手：开头进行回复。\n\n当前时间：' + now + '<|extra_4|>用户：' + m.content + '<|extra_0|>' }}
    {%- endif %}
  {%- elif m.role == 'user' %}
    {{- '用户：' + m.content + '<|extra_0|>' }}
  {%- elif m.tool_calls is defined %}
    {{- m.content + '<tool_calls>[' }}
    {%- for call in m.tool_calls %}
      {%- set args = call.function.arguments %}
      {{- '{"name": "' + call.function.name + '", "arguments": ' + (args if args is string else args | tojson) + '}' }}
      {{- '' if loop.last else ', ' }}
    {%- endfor %}
    {{- ']</tool_calls><|eos|>' }}
  {%- elif m.role == 'tool' %}
    {{- '<tool_response>' + m.content + '</tool_response><|extra_0|>' }}
  {%- else %}
    {{- '助手：' + m.content + '<|eos|>' }}
  {%- endif %}
{%- endfor %}`;

/**
 * xLAM-2 (vLLM's `examples/tool_chat_template_xlam_qwen.jinja`, for Salesforce's Qwen-based xLAM-2): the system
 * message (trimmed) and each tool as indented JSON, calls as one JSON list of `{"name": …, "arguments": {…}}`; a turn
 * with calls renders no content and no reasoning.
 *
 * @example
 * safeRenderChatTemplate({ template: XLAM_LOOK_ALIKE, messages, tools });
 */
export const XLAM_LOOK_ALIKE = String.raw`
{{- '<|im_start|>system\n' }}
{%- if messages[0].role == 'system' %}{{- messages[0].content | trim + '\n' }}{%- endif %}
{%- for tool in tools or [] %}{{- tool | tojson(indent=4) + '\n\n' }}{%- endfor %}
{{- '<|im_end|>\n' }}
{%- set turns = messages[1:] if messages[0].role == 'system' else messages %}
{%- for m in turns %}
  {%- if 'tool_calls' in m %}
    {{- '<|im_start|>assistant\n' }}
    {%- if m.tool_calls %}
      {{- '[' }}
      {%- for call in m.tool_calls %}{{- call.function | tojson + ('' if loop.last else ', ') }}{%- endfor %}
      {{- ']' }}
    {%- else %}
      {{- m.content | trim if m.content else '[]\n' }}
    {%- endif %}
    {{- '<|im_end|>\n' }}
  {%- else %}
    {{- '<|im_start|>' + m.role + '\n' + m.content | trim + '<|im_end|>\n' }}
  {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}{{- '<|im_start|>assistant\n' }}{%- endif %}`;

/**
 * Granite 4.0 (IBM `ibm-granite/granite-4.0-*`'s chat template; published in llama.cpp's
 * `models/templates/ibm-granite-granite-4.0.jinja`): the tools as JSON lines in `<tools></tools>` after the system
 * message, calls in Hermes' `<tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>`, one per line after the
 * content; reasoning is not rendered. Tool results are imitated too (`<tool_response>` in a user turn; the probes
 * render them).
 *
 * @example
 * safeRenderChatTemplate({ template: GRANITE_40_LOOK_ALIKE, messages, tools });
 */
export const GRANITE_40_LOOK_ALIKE = String.raw`
{%- set system = messages[0].content if messages[0].role == 'system' else '' %}
{%- if tools %}
  {%- set listing = 'You are a helpful assistant with access to the following tools. You may call one or more tools to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n' + tools | map('tojson') | join('\n') + '\n</tools>\n\nFor each tool call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>. If a tool does not exist in the provided list of tools, notify the user that you do not have the ability to fulfill the request.' %}
  {%- set system = system + '\n\n' + listing if system else listing %}
{%- endif %}
{{- '<|start_of_role|>system<|end_of_role|>' + (system or 'You are a helpful assistant. Please ensure responses are professional, accurate, and safe.') + '<|end_of_text|>\n' }}
{%- for m in messages %}
  {%- if m.role == 'user' or (m.role == 'system' and not loop.first) %}
    {{- '<|start_of_role|>' + m.role + '<|end_of_role|>' + m.content + '<|end_of_text|>\n' }}
  {%- elif m.role == 'assistant' %}
    {%- set text = m.content if m.content is string else '' %}
    {{- '<|start_of_role|>assistant<|end_of_role|>' + text }}
    {%- for call in m.tool_calls or [] %}
      {%- set args = call.function.arguments %}
      {{- '\n' if text or not loop.first else '' }}
      {{- '<tool_call>\n{"name": "' + call.function.name + '", "arguments": ' + (args if args is string else args | tojson) + '}\n</tool_call>' }}
    {%- endfor %}
    {{- '<|end_of_text|>\n' }}
  {%- elif m.role == 'tool' %}
    {{- '<|start_of_role|>user<|end_of_role|>' if loop.first or messages[loop.index0 - 1].role != 'tool' else '' }}
    {{- '\n<tool_response>\n' + m.content + '\n</tool_response>' }}
    {{- '<|end_of_text|>\n' if loop.last or messages[loop.index0 + 1].role != 'tool' else '' }}
  {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}{{- '<|start_of_role|>assistant<|end_of_role|>' }}{%- endif %}`;

/**
 * Granite 3.3 (`ibm-granite/granite-3.3-2b-instruct`'s chat template; published in llama.cpp's
 * `models/templates/ibm-granite-granite-3.3-2B-Instruct.jinja`): the tools as indented JSON in an
 * `available_tools` turn, every message as its role and content, so an assistant message's calls are dropped (the
 * turn renders its content alone); without a system message, the default one names `<|tool_call|>`, the marker the
 * model writes (what detection reads).
 *
 * @example
 * safeRenderChatTemplate({ template: GRANITE_33_LOOK_ALIKE, messages, tools });
 */
export const GRANITE_33_LOOK_ALIKE = String.raw`
{%- if messages[0].role == 'system' %}
  {%- set system = messages[0].content %}
  {%- set turns = messages[1:] %}
{%- else %}
  {%- set system = "Knowledge Cutoff Date: April 2024. Today's Date: " + strftime_now('%B %d, %Y') + '. You are Granite, developed by IBM.' %}
  {%- set system = system + (" You are a helpful assistant with access to the following tools. When a tool is required to answer the user's query, respond only with <|tool_call|> followed by a JSON list of tools used. If a tool does not exist in the provided list of tools, notify the user that you do not have the ability to fulfill the request." if tools else ' You are a helpful AI assistant.') %}
  {%- set turns = messages %}
{%- endif %}
{{- '<|start_of_role|>system<|end_of_role|>' + system + '<|end_of_text|>\n' }}
{%- if tools %}{{- '<|start_of_role|>available_tools<|end_of_role|>' + tools | tojson(indent=4) + '<|end_of_text|>\n' }}{%- endif %}
{%- for m in turns %}{{- '<|start_of_role|>' + m.role + '<|end_of_role|>' + m.content + '<|end_of_text|>\n' }}{%- endfor %}
{%- if add_generation_prompt %}{{- '<|start_of_role|>assistant<|end_of_role|>' }}{%- endif %}`;

/**
 * MiniMax-M2's assistant turn (`MiniMaxAI/MiniMax-M2`'s chat template, whose modified MIT licence keeps it out of the
 * repository; written from its rendering): `]~b]ai\n`, reasoning in `<think>`, calls in `<minimax:tool_call>` as
 * `<invoke name="…">` with one `<parameter name="…">` per argument, non-strings written by `| tojson` (typed back by
 * the tool's schema), `[e~[` ending each turn.
 *
 * @example
 * safeRenderChatTemplate({ template: MINIMAX_LOOK_ALIKE, messages, tools });
 */
export const MINIMAX_LOOK_ALIKE = [
  "{%- for m in messages %}",
  "{%- if m.role == 'assistant' %}{{ ']~b]ai\\n' }}",
  "{%- if m.reasoning_content %}{{ '<think>\\n' + m.reasoning_content + '\\n</think>\\n\\n' }}{%- endif %}",
  "{%- if m.content %}{{ m.content }}{%- endif %}",
  "{%- if m.tool_calls %}{{ '\\n<minimax:tool_call>\\n' }}",
  "{%- for c in m.tool_calls %}{{ '<invoke name=\"' + c.function.name + '\">\\n' }}",
  "{%- for k, v in c.function.arguments | items %}",
  "{{ '<parameter name=\"' + k + '\">' + (v if v is string else v | tojson) + '</parameter>\\n' }}{%- endfor %}",
  "{{ '</invoke>\\n' }}{%- endfor %}{{ '</minimax:tool_call>' }}{%- endif %}{{ '[e~[\\n' }}",
  "{%- else %}{{ ']~b]' + m.role + '\\n' + m.content + '[e~[\\n' }}{%- endif %}",
  "{%- endfor %}",
  "{%- if add_generation_prompt %}{{ ']~b]ai\\n<think>\\n' }}{%- endif %}",
].join("");
