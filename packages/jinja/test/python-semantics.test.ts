import { parseJson } from "@toolcall/core";
import { describe, expect, it } from "vitest";
import { type Outcome, PARITY_NOW, renderPythonText } from "../scripts/parity-cases.mjs";
import { compileTemplate, TemplateError } from "../src/index.js";

// Each construct the real templates lean on, rendered by Python + Jinja2 (transformers' environment) and by us.
// Variables are JSON text, so Python reads `20.0` as a float and big integers whole; we read them losslessly.

interface Snippet {
  name: string;
  template: string;
  variables?: string;
}

const D =
  '{"b": [1, 2.0, null], "a": {"é": "中😀", "q": "say \\"hi\\" it\'s"}, "c": true, "n": 123456789012345678901234567890}';

const snippets: Snippet[] = [
  {
    name: "Python constants print as Python does",
    template: "{{ True }}{{ False }}{{ None }}{{ none }}{{ true }}|{{ [true, none] }}",
  },
  {
    name: "float repr and integer arithmetic",
    template:
      "{{ 1.0 }} {{ 1e20 }} {{ 1e-7 }} {{ 0.1 + 0.2 }} {{ 10 / 4 }} {{ 7 / 7 }} {{ 10 // 4 }} {{ -7 // 2 }} {{ -7 % 3 }} {{ 2 ** 100 }} {{ 2 ** -1 }} {{ 3 * 'ab' }} {{ 1.5 // 1 }} {{ -0.0 }} {{ 1_000 }}",
  },
  {
    name: "big integers and floats from data keep their Python form",
    template:
      "{{ x }} {{ x + 1 }} {{ x * 2 }} {{ y }} {{ y|string }} {{ z }} {{ [x, y, z] }} {{ x is integer }} {{ y is float }}",
    variables: '{"x": 123456789012345678901234567890, "y": 20.0, "z": 1e20}',
  },
  {
    name: "|string and {{ }} of lists, dicts and tuples use Python's repr",
    template:
      "{{ [1, 'a', None, True, 2.5, {'k': [1.0]}] }} {{ {'a': \"it's\", 'b': 'say \"hi\"'} }} {{ ('x',) }} {{ (1, 2) }} {{ {'a': None, 'b': True}|string }} {{ d }}",
    variables: `{"d": ${D}}`,
  },
  {
    name: "repr escapes quotes, control and non-printable characters",
    template:
      "{{ ['é', '\\x00', '\\xa0', 'a\\'b', \"a\\\"b'c\", '😀', '\\u2028', '\\t\\n\\r', '\\x7f', '\\\\'] }}",
  },
  {
    name: "tojson with its keyword arguments",
    template:
      "{{ d|tojson }}\n{{ d|tojson(indent=2) }}\n{{ d|tojson(separators=(',', ':')) }}\n{{ d|tojson(sort_keys=True) }}\n{{ d|tojson(ensure_ascii=True) }}\n{{ d|tojson(indent='\\t', sort_keys=true) }}\n{{ []|tojson(indent=2) }}{{ {}|tojson }}",
    variables: `{"d": ${D}}`,
  },
  {
    name: "tojson of numbers",
    template:
      "{{ [1.0, -0.0, 1e20, 1e-7, 123456789012345678901234567890, 1.5e300, 0.1]|tojson }}{{ x|tojson }}",
    variables: '{"x": [20.0, 1E400, -1e-400]}',
  },
  {
    name: "dictsort, items, .items()",
    template:
      "{% for k, v in d|dictsort %}{{ k }}={{ v }};{% endfor %}|{% for k, v in d|dictsort(reverse=true) %}{{ k }}{% endfor %}|{% for k, v in d|items %}{{ k }}{% endfor %}|{% for k, v in d.items() %}{{ k }}{% endfor %}|{{ d.keys()|list }}{{ d.values()|list }}|{{ d.get('zz', 'no') }}{{ d.get('b') }}{{ d.get('zz') }}",
    variables: '{"d": {"b": 1, "A": 2, "a": 3}}',
  },
  {
    name: "select, reject, selectattr, map",
    template:
      "{{ [1,2,3,4]|reject('even')|list }} {{ ['a','b']|select('in', ['a'])|list }} {{ ['a','b','c']|reject('in', ['a', 'c'])|list }} {{ users|selectattr('active')|map(attribute='name')|join(', ') }} {{ users|rejectattr('active')|list }} {{ ['a','b']|map('upper')|list }} {{ users|map(attribute='age', default=0)|list }} {{ users|selectattr('name', 'equalto', 'bo')|list|length }}",
    variables: '{"users": [{"name": "al", "active": true, "age": 3}, {"name": "bo", "active": false}]}',
  },
  {
    name: "string methods",
    template:
      "{{ '  a b  '.strip() }}|{{ 'a,b,,c'.split(',') }}|{{ ' a  b '.split() }}|{{ 'a b c'.split(' ', 1) }}|{{ 'a b c'.rsplit(' ', 1) }}|{{ 'abc'.startswith('ab') }}|{{ 'abc'.endswith(('x','c')) }}|{{ 'x-y-z'.replace('-', '+', 1) }}|{{ 'hello wORLD 1st'.title() }}|{{ 'ABC'.lower() }}|{{ 'abc'.upper() }}|{{ 'xxaxx'.lstrip('x') }}|{{ 'xxaxx'.rstrip('x') }}|{{ 'a\\nb\\r\\nc'.splitlines() }}|{{ 'abcb'.find('b') }}{{ 'abcb'.rfind('b') }}{{ 'abc'.find('z') }}|{{ 'abc'.count('b') }}|{{ ', '.join(['a', 'b']) }}|{{ '\\n\\t x \\u3000'.strip() }}|{{ 'abc'.capitalize() }}{{ 'a'.isdigit() }}{{ '12'.isdigit() }}",
  },
  {
    name: "slicing strings and lists",
    template:
      "{{ 'hello'[::-1] }} {{ 'hello'[1:3] }} {{ [1,2,3,4,5][::2] }} {{ [1,2,3][-1] }} {{ 'héllo😀'[-2:] }} {{ 'héllo😀'[::-1] }} {{ 'héllo😀'|length }} {{ [1,2,3][5] }}| {{ 'abc'[1] }} {{ [1,2,3,4][1:-1] }} {{ [1,2,3,4][10:] }} {{ 'abc'[:-1] }} {{ (1,2,3)[1:] }}",
  },
  {
    name: "loop controls and the loop variable",
    template:
      "{% for i in range(10) %}{% if i == 2 %}{% continue %}{% endif %}{% if i > 5 %}{% break %}{% endif %}{{ loop.index }}{{ loop.first }}{{ loop.last }}{% if not loop.first %}{{ loop.previtem }}{% endif %};{% endfor %}|{% for i in [] %}x{% else %}empty{% endfor %}|{% for x in [1,2,3] if x > 1 %}{{ loop.length }}{{ x }}{% endfor %}|{% for x in 'abc' %}{{ loop.cycle('o','e') }}{{ loop.revindex }}{{ loop.revindex0 }}{{ loop.nextitem }}{% endfor %}|{% for i in range(5, 0, -2) %}{{ i }}{% endfor %}|{% for a in [1, 2] %}{% for b in [3, 4] %}{% if b == 4 %}{% break %}{% endif %}{{ a }}{{ b }}{{ loop.index }}{% endfor %}{% endfor %}",
  },
  {
    name: "namespace and scoping of set in loops",
    template:
      "{% set ns = namespace(n=0, found=false) %}{% set x = 1 %}{% for i in range(3) %}{% set ns.n = ns.n + i %}{{ x }}{% set x = x + 1 %}{{ x }}{% if i == 1 %}{% set ns.found = true %}{% endif %}{% endfor %}{{ ns.n }}{{ x }}{{ ns.found }}{% if true %}{% set y = 5 %}{% endif %}{{ y }}",
  },
  {
    name: "macros: defaults, keyword arguments, varargs, kwargs, recursion",
    template:
      "{% macro f(a, b=2) %}[{{ a }}{{ b }}{{ varargs }}{{ kwargs }}]{% endmacro %}{{ f(1) }}{{ f(1, 3) }}{{ f(1, b=5) }}{{ f(1, 2, 3, z=4) }}{% macro r(n) %}{% if n > 0 %}{{ n }}{{ r(n - 1) }}{% endif %}{% endmacro %}{{ r(3) }}{% macro g(x) %}{{ x }}{{ y }}{% endmacro %}{% set y = 'late' %}{{ g() }}",
  },
  {
    name: "trim_blocks, lstrip_blocks and whitespace control",
    template:
      "  {% if true %}\n    yes\n  {% endif %}\n{{- ' x ' -}}\n  {#- c -#}  \n{%+ if true %}k{% endif %}\n  {# comment #}\nA {%- if true %} B {% endif -%}  C\n\t{% for i in [1] %}\n{{ i }}\n\t{% endfor %}\nend\n",
  },
  { name: "CRLF templates", template: "a\r\n{% if true %}\r\nb\r\n  {% endif %}\r\nc {{ 'x' }}\r\n\r\n" },
  {
    name: "string literals: escapes, backslash-newline, raw newlines, adjacent literals",
    template:
      "{{ 'a\\tb\\n' }}|{{ \"q\\\"uote\" }}|{{ 'x\\\ny' }}|{{ 'uni\\u00e9\\x41\\101' }}|{{ 'raw\nnewline' }}|{{ 'unknown \\d escape' }}|{{ 'ab' 'cd' }}|{{ '\\'' }}",
  },
  {
    name: "raise_exception raises TemplateError with the message",
    template:
      "before{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}",
  },
  {
    name: "strftime_now reads the clock given",
    template: "{{ strftime_now('%d %b %Y %H:%M:%S %A %B %j %p %I %y-%m-%d %-d') }}",
  },
  { name: "str + int raises TypeError", template: "{{ 'a' + 1 }}" },
  { name: "int + str raises TypeError", template: "{{ 1 + 'a' }}" },
  { name: "str + dict raises TypeError", template: "{{ 'a' + d }}", variables: '{"d": {"x": 1}}' },
  { name: "a method of None raises UndefinedError", template: "{{ none.split('x') }}" },
  { name: "in None raises TypeError", template: "{{ 'x' in none }}" },
  { name: "attribute of an undefined name raises UndefinedError", template: "{{ undefined_var.attr }}" },
  { name: "ordering list and str raises TypeError", template: "{{ [1] < 'a' }}" },
  { name: "items of a string raises TypeError", template: "{{ 'abc'|items|list }}" },
  { name: "division by zero raises ZeroDivisionError", template: "{{ 1 / 0 }}" },
  { name: "unpacking too few raises ValueError", template: "{% set a, b = [1] %}" },
  { name: "calling undefined raises UndefinedError", template: "{{ nothing() }}" },
  {
    name: "missing dict key used raises UndefinedError",
    template: "{{ d.nokey.deeper }}",
    variables: '{"d": {}}',
  },
  { name: "tojson of undefined raises TypeError", template: "{{ nothing|tojson }}" },
  { name: "mutating a list is unsafe", template: "{{ [1].append(2) }}" },
  {
    name: "undefined values print empty and test false",
    template:
      "{{ missing }}|{{ missing|default('d') }}|{{ ''|default('e', true) }}|{{ missing is defined }}|{{ missing|length }}|{{ missing|string }}|{{ (missing or 'x') }}|{% for m in missing %}x{% endfor %}|{{ d['nokey'] }}|{{ d.nokey is defined }}|{{ missing ~ 'a' }}|{{ missing is none }}|{{ missing == missing }}|{{ [1,2][7] is defined }}|{{ 'x' in missing }}|{{ missing is sequence }}|{{ missing is iterable }}",
    variables: '{"d": {}}',
  },
  {
    name: "tests",
    template:
      "{{ 1 is integer }}{{ 1.0 is float }}{{ True is number }}{{ True is integer }}{{ 'a' is string }}{{ {} is mapping }}{{ [] is sequence }}{{ 'a' is iterable }}{{ none is none }}{{ false is false }}{{ 0 is false }}{{ 3 is odd }}{{ 4 is even }}{{ 1 is boolean }}{{ true is boolean }}{{ d is mapping }}{{ d is sequence }}{{ 6 is divisibleby 3 }}{{ 'A' is upper }}{{ 'a' is eq 'a' }}{{ 1 is in [1] }}{{ 'upper' is filter }}{{ none is sameas none }}",
    variables: '{"d": {"a": 1}}',
  },
  {
    name: "filters",
    template:
      "{{ '  x  '|trim }}|{{ 'xxaxx'|trim('x') }}|{{ 'a-b'|replace('-', '') }}|{{ [3,1,2]|sort }}|{{ ['b','A','a']|sort }}|{{ ['b','A','a']|sort(case_sensitive=true) }}|{{ [1,2,2,3]|unique|list }}|{{ [1,2,3]|first }}{{ [1,2,3]|last }}|{{ 'abc'|list }}|{{ [1,2,3]|sum }}|{{ [1.5,2]|sum }}|{{ ['x','yy']|max }}{{ [3, 1]|min }}|{{ -3|abs }}|{{ '42'|int + 1 }}|{{ '4.7'|int }}|{{ 'x'|int }}|{{ '3.5'|float }}|{{ 2.5|round }}|{{ 3.5|round }}|{{ 3.14159|round(2) }}|{{ 2|round }}|{{ 'hello world foo'|wordcount }}|{{ 'ab cd-ef'|title }}|{{ 'aBC'|capitalize }}|{{ 'a\\nb\\n\\nc'|indent(2) }}|{{ 'a\\nb'|indent(2, true) }}|{{ [1,2,3]|join('-') }}|{{ 'abc'|length }}{{ {'a':1}|length }}{{ [1]|count }}|{{ 'a<b>&\"\\''|e }}|{{ [1,2]|reverse|list }}|{{ 'abc'|reverse }}|{{ 'abc'|upper|lower }}|{{ [[1,2],[3]]|sum(start=[]) }}|{{ 'abcdefghij'|truncate(5, leeway=0) }}|{{ 'abc'|center(9) }}|{{ [1,2,3,4,5]|batch(2)|list }}",
  },
  {
    name: "comparisons, chains and membership",
    template:
      "{{ 1 < 2 < 3 }}{{ 1 < 3 < 2 }}{{ 'a' in 'abc' }}{{ 'x' not in ['x'] }}{{ 1 in {1: 2} }}{{ 1 == 1.0 }}{{ [1] == [1.0] }}{{ (1,) == [1] }}{{ 'b' > 'a' }}{{ [1, 2] < [1, 3] }}{{ none == none }}{{ 'a' != 'a' }}{{ not 1 }}{{ 1 >= 1.0 }}",
  },
  {
    name: "inline if, and, or return operands",
    template:
      "[{{ 'a' if false }}]|{{ 'a' if false else 'b' }}|{{ x and 'y' }}|{{ 0 or [] or 'z' }}|{{ '' or none }}|{{ 1 and 0 }}",
    variables: '{"x": 0}',
  },
  {
    name: "block set with filter",
    template:
      "{% set x %}  inner {{ 1 }}  {% endset %}[{{ x }}]{% set y | upper %}abc{% endset %}{{ y }}{% set a, b = 1, 2 %}{{ a }}{{ b }}",
  },
  {
    name: "concatenation with ~ stringifies",
    template: "{{ 1 ~ 'a' ~ none ~ true ~ 1.0 ~ [1] ~ x }}",
    variables: '{"x": 1e21}',
  },
  {
    name: "dict access by attribute and subscript",
    template:
      "{{ m.role }}{{ m['role'] }}{{ m.content is none }}{{ m['tool_calls'][0]['function']['name'] }}{{ m.tool_calls[0].function.arguments.x }}{{ m.get('content', 'd') }}{{ m.items|length if false else '' }}",
    variables:
      '{"m": {"role": "assistant", "content": null, "tool_calls": [{"function": {"name": "f", "arguments": {"x": 1.0}}}]}}',
  },
  { name: "generation blocks render their body", template: "a{% generation %}b{{ 1 }}{% endgeneration %}c" },
  {
    name: "filter blocks and with blocks",
    template: "{% filter upper %}abc{{ 'd' }}{% endfilter %}{% with a = 1, b = 2 %}{{ a + b }}{% endwith %}",
  },
  {
    name: "range and dict globals",
    template: "{{ range(3)|list }}{{ range(1, 7, 2)|list }}{{ dict(a=1, b=[2]) }}{{ namespace(a=1).a }}",
  },
  {
    name: "float powers round as C's pow does, not as Math.pow",
    template:
      "{{ 255 ** -2 }} {{ 7 ** -3 }} {{ 1.1 ** 2 }} {{ 123.456 ** -43 }} {{ 2 ** -1074 }} {{ 2 ** -1075 }} {{ (-3) ** -3 }} {{ 2.0 ** 0.5 }}",
  },
  {
    name: "repeating a sequence by a huge int raises as Python does",
    template: "{{ n * 'a' }}",
    variables: '{"n": 99999999999999999999}',
  },
  {
    name: "a repeated str past the index range overflows",
    template: "{{ 'ab' * 4611686018427387904 }}",
  },
  {
    name: "a repeated str within the index range is out of memory",
    template: "{{ 'a' * 4611686018427387904 }}",
  },
  {
    name: "empty sequences repeat any number of times",
    template: "{{ ['' * 9223372036854775807, [] * 9223372036854775807, () * 9223372036854775807] }}",
  },

  {
    name: "last of a Markup is a Markup; truncate of a list",
    template:
      "{{ ('<b>'|e)|last|pprint }} {{ ('<b>'|e)|first|pprint }} {{ ['ab', 'cd']|truncate(5) }} {{ (1,2,3,4,5,6,7,8,9)|truncate(3) }}",
  },
  {
    name: "bound methods are of type method",
    template: "{{ '%s' % ('a'|e|attr('upper') in 'x') }}",
  },
  {
    name: "a name a frame assigns before reading it is undefined in the frame until assigned",
    template:
      "{% for u in [1] %}[{{ w }}]{% endfor %}{% set w = 2 %}{% for i in [1, 2] %}{% for j in [1] %}<{{ w }}>{% endfor %}{% set w = i %}{% endfor %}{% macro m() %}{{ z is defined }}{% set z = 3 %}{{ z }}{% endmacro %}{{ m() }}{% with a = 1 %}{% for u in [1] %}({{ y }}){% endfor %}{% set y = 2 %}{% endwith %}",
    variables: '{"w": 1, "y": 5, "z": 6}',
  },
  {
    name: "a name assigned only in a branch, or read first, keeps the context's value",
    template:
      "{% for u in [1] %}{{ w }}{% endfor %}{% if true %}{% set w = 2 %}{% else %}{% set w = 3 %}{% endif %}{% for u in [1] %}{{ v }}{% endfor %}{{ v }}{% set v = 2 %}{% set x = k %}{% for u in [1] %}{{ k }}{% endfor %}{% set k = 2 %}",
    variables: '{"w": 1, "v": 4, "k": 7}',
  },
  {
    name: "a macro defined after a loop that names it is undefined in the loop",
    template: "{% for u in [1] %}{{ w.x }}{% endfor %}{% macro w(t) %}{% endmacro %}",
    variables: '{"w": {}}',
  },
  {
    name: "a call block's caller is an anonymous macro",
    template:
      "{% macro w() %}{{ caller }}|{{ caller.name }}|{{ caller|pprint }}|{{ caller(1) }}{% endmacro %}{% call w() %}x{% endcall %}",
  },
  {
    name: "a macro's defaults compile before its body",
    template: "{% macro m(a=1|nofilter) %}{{ x|nofilter2 }}{% endmacro %}",
  },
  {
    name: "format's c type reads a C long before the code point range",
    template: "{{ '{:c}'.format(-9223372036854775809) }}",
  },
  {
    name: "format's c type: a C long out of the code point range",
    template: "{{ '{:c}'.format(-9223372036854775808) }}",
  },
  {
    name: "every undefined is one dict key, one unique item, one member",
    template:
      "{{ dict([[u.x, 1], [u.y, 2]])|length }} {{ dict([[u.x, 1], [u.y, 2]])|pprint }} {{ [u.x, u.y, 1]|unique|list }} {{ u.x in [u.y] }} {{ {u.x: 3}[u.z] }}",
    variables: '{"u": {}}',
  },
  {
    name: "lstrip_blocks strips the indentation before an endraw",
    template:
      "  {% raw %}\n  x\n  {% endraw %}\n|{% raw -%}\n  {% endraw %}|{% raw %}  {% endraw %}|a\n{% raw %}x\n  {%+ endraw %}|{% raw %}x\n\t {% endraw %}|",
  },
  {
    name: "round by floor or ceil keeps a big int exact before dividing",
    template:
      "{{ v|round(2, 'floor') }} {{ v|round(0, 'ceil') }} {{ v|round(-2, 'floor') }} {{ 7|round(1, 'ceil') }} {{ true|round(1, 'floor') }} {{ (10**30)|round(3, 'ceil') }}",
    variables: '{"v": 123456789012345678901234567890}',
  },
  { name: "a Markup times an undefined asks it for an index", template: "{{ ('a'|safe) * x }}" },
  { name: "str.join of a non-iterable", template: "{{ 'x'.join(2.5) }}" },
  { name: "Markup.join of a non-iterable", template: "{{ ('x'|safe).join(none) }}" },
  { name: "a loop without a target", template: "{% for %}{% endfor %}" },
  { name: "a trailing comma in a loop target reads in as a name", template: "{% for a, in x %}{% endfor %}" },
  { name: "a tuple target holding a constant", template: "{% for a, 1 in x %}{% endfor %}" },
  { name: "a list target", template: "{% set [a, b] = [1, 2] %}" },
  { name: "an arithmetic target in parentheses", template: "{% for (a // b) in x %}{% endfor %}" },
  {
    name: "parenthesized and nested tuple targets",
    template:
      "{% for (a, (b, c)) in [[1, [2, 3]]] %}{{ a }}{{ b }}{{ c }}{% endfor %}{% for ((d)) in [4] %}{{ d }}{% endfor %}",
  },
  {
    name: "a block before a top-level set reads the context: the given variable, not the root's unassigned local",
    template:
      "{% block b %}[{{ x }}]{% endblock %}{% set x = 2 %}{% block c %}[{{ x }}]{% endblock %}{{ x }}|{% if true %}{% block d %}[{{ y }}]{% endblock %}{% endif %}{% set y, z = 3, 4 %}{% block e %}[{{ z }}{{ w }}]{% endblock %}{% set w %}c{% endset %}{% block f %}[{{ v }}{% set v = 7 %}{{ v }}]{% endblock %}{% set v = 6 %}{{ v }}",
    variables: '{"x": 5, "y": 8, "w": 9, "v": 1}',
  },
  {
    name: "a block before a top-level set: loops and macros of the root still see its local",
    template:
      "{% macro m() %}({{ x }}){% endmacro %}{% block b %}{{ m() }}{{ self.c() }}{% endblock %}{% for i in [1] %}<{{ x }}>{% endfor %}{% block c %}[{{ x }}]{% endblock %}{% set x = 2 %}{{ m() }}{% block d scoped %}{{ x }}{% endblock %}{{ self.c() }}",
    variables: '{"x": 5}',
  },
  {
    name: "autoescape: |safe and plain strings, printed, joined, concatenated, through string filters",
    template:
      "{% autoescape true %}{{ s }}|{{ s|safe }}|{{ '<b>' }}|{{ '<b>'|safe }}|{{ s ~ '&' }}|{{ (s|safe) ~ '<i>' }}|{{ s|safe|e }}|{{ s|e|safe }}|{{ [s, s|safe] }}|{{ s|safe|upper }}|{{ s|upper }}|{{ s|safe + '<' }}|{{ '<' + s|safe }}|{{ [s]|join('<br>'|safe) }}|{{ [s]|join('<br>') }}|{{ s|tojson }}|{{ s|safe|striptags }}|{{ '%s<'|format(s) }}|{{ ('%s<'|safe)|format(s) }}{% endautoescape %}|{{ s|safe }}|{{ s|e ~ s }}|{{ s|forceescape }}",
    variables: '{"s": "<a href=\\"x\\">O&apos;\'</a>"}',
  },
  {
    name: "autoescape: replace escapes what it puts into a safe string, and a plain one when the new text is safe",
    template:
      "{% set m = s|safe %}{% autoescape true %}{{ m|replace('a', '<') }}|{{ s|replace('a', '<') }}|{{ s|replace('a', '<b>'|safe) }}|{{ m|replace('a', '<b>'|safe) }}|{{ s|replace('<'|safe, '[') }}|{{ m|replace('<', '&', 1) }}|{{ s|replace('a', '<', 1) }}|{{ m.replace('a', '<') }}{% endautoescape %}|{{ m|replace('a', '<') }}|{{ s|replace('a', '<b>'|safe) }}",
    variables: '{"s": "<a>a&"}',
  },
  {
    name: "urlize escapes a plain string once and a safe one not at all, with autoescape or without",
    template:
      "{% autoescape true %}{{ s|urlize }}|{{ s|safe|urlize }}|{{ 'x <y> www.example.com'|urlize }}{% endautoescape %}|{{ s|urlize }}|{{ s|safe|urlize }}",
    variables: '{"s": " <x> & http://a.b/?q=1&r=<2> mail@ex.com "}',
  },
  {
    name: "xmlattr escapes its values once, with autoescape or without, folded or not",
    template:
      "{% autoescape true %}<p{{ d|xmlattr }}>|<p{{ {'a': '<&'}|xmlattr }}>|{{ d|xmlattr(false) }}{% endautoescape %}|<p{{ d|xmlattr }}>",
    variables: '{"d": {"a": "<&\\"", "b": null, "c": 1}}',
  },
  {
    name: "pprint prints groupby's tuples by repr, dicts unsorted",
    template: "{{ users|groupby('age')|list|pprint }}|{{ (users * 5)|groupby('age')|list|pprint }}",
    variables: '{"users": [{"name": "al", "age": 7}, {"name": "Bo", "age": 3}]}',
  },
];

function pythonInput(s: Snippet): string {
  const template = JSON.stringify(s.template);
  return `{"template": ${template}, "messages": [], "tools": null, "add_generation_prompt": false, "kwargs": ${s.variables ?? "{}"}}`;
}

function ours(s: Snippet): Outcome {
  const parsed = parseJson(s.variables ?? "{}", { lossless: true });
  if (!parsed.success) throw new Error(parsed.error);
  const variables = {
    messages: [],
    tools: null,
    documents: null,
    add_generation_prompt: false,
    ...(parsed.value as Record<string, unknown>),
  };
  try {
    return { ok: compileTemplate(s.template).render(variables, { now: PARITY_NOW }) };
  } catch (error) {
    if (TemplateError.isInstance(error)) return { error: error.pythonText };
    throw error;
  }
}

describe("Python semantics, construct by construct, against Jinja2", () => {
  const expected = renderPythonText(`[${snippets.map(pythonInput).join(",")}]`);
  snippets.forEach((snippet, i) => {
    it(snippet.name, () => {
      expect(ours(snippet)).toEqual(expected[i]);
    });
  });
});

/** Errors Python's compiler raises on Jinja2's generated code: its words, and a line of that code we cannot match. */
const compileErrors: Snippet[] = [
  { name: "break outside a loop", template: "{% if true %}{% break %}{% endif %}" },
  { name: "continue outside a loop", template: "x{% continue %}y" },
  {
    name: "break in a loop's else, in a macro, in a call block, in a block",
    template:
      "{% for b in [] %}{% else %}{% break %}{% endfor %}{% for x in [1] %}{% macro m() %}{% break %}{% endmacro %}{% endfor %}",
  },
  {
    name: "break in a block inside a loop",
    template: "{% for x in [1] %}{% block b %}{% break %}{% endblock %}{% endfor %}",
  },
  { name: "Jinja's own compile errors come first", template: "{% break %}{{ x|nofilter }}" },
  {
    name: "a macro's duplicate parameter",
    template: "{% for x in [1] %}{% macro m(a, b, a) %}{% endmacro %}{% endfor %}",
  },
  { name: "a call block's duplicate parameter", template: "{% call(a, a) m() %}{% endcall %}" },
  {
    name: "break and continue where the generated code loops",
    template:
      "{% for x in [1, 2] %}{% filter upper %}{% if x == 1 %}{% continue %}{% endif %}a{% endfilter %}{% with y = x %}{% break %}{% endwith %}{% endfor %}ok",
  },
];

describe("Python's compile errors on the generated code, without its line", () => {
  const expected = renderPythonText(`[${compileErrors.map(pythonInput).join(",")}]`);
  compileErrors.forEach((snippet, i) => {
    it(snippet.name, () => {
      const want = expected[i] as Outcome;
      const stripped =
        "error" in want ? { error: want.error.replace(/ \(<template>, line \d+\)$/, "") } : want;
      expect(ours(snippet)).toEqual(stripped);
    });
  });
});
