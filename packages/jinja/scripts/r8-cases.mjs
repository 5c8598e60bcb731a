// The R8 render vectors' own templates, one per Jinja2 / Python behaviour a chat template can meet. Expected
// outcomes are not written here: scripts/r8-vectors.mjs renders each case with Python + Jinja2 as transformers
// does (../shared/parity/hf_render.py) and writes what it gives into packages/conformance/vectors/r8/.
//
// A case: [slug, description, template, variables?]. `F(20)` is a float JavaScript cannot tell from an int.

/** An integral float (`20.0`), tagged for the vectors. */
export const F = (value) => ({ $float: Number.isInteger(value) ? value.toFixed(1) : String(value) });

/** An int beyond 2^53, tagged for the vectors. */
export const BIG = (digits) => ({ $bigint: digits });

const USERS = [
  { name: "al", age: 30, active: true },
  { name: "Bo", age: 25, active: false },
  { name: "cy", age: 30, active: true },
];

export const TOPICS = {
  filters: [
    "filters Jinja2 3.1 defines, with Python's results",
    [
      ["abs", "abs of ints and floats", "{{ -3|abs }} {{ -2.5|abs }} {{ true|abs }}"],
      [
        "attr-on-dict-is-undefined",
        "attr() on a dict looks up attributes, not keys",
        "{{ d|attr('x') is defined }}|{{ d|attr('keys') is defined }}",
        { d: { x: 1 } },
      ],
      [
        "batch",
        "batch with and without a fill",
        "{{ [1,2,3,4,5]|batch(2)|list }} {{ [1,2,3]|batch(2, 'x')|list }}",
      ],
      [
        "capitalize-center",
        "capitalize and center",
        "[{{ 'hELLO wORLD'|capitalize }}][{{ 'abc'|center(8) }}]",
      ],
      [
        "default",
        "default, with and without boolean",
        "{{ missing|default('d') }} {{ ''|default('e') }}|{{ ''|default('e', true) }} {{ none|d('n', true) }}",
      ],
      [
        "dictsort",
        "dictsort by key, by value, reversed, case sensitive",
        "{{ d|dictsort }} {{ d|dictsort(by='value') }} {{ d|dictsort(reverse=true) }} {{ d|dictsort(true) }}",
        { d: { b: 2, A: 3, a: 1 } },
      ],
      [
        "escape-forceescape",
        "escape, e and forceescape",
        "{{ '<a href=\"x\">&\\'</a>'|e }} {{ ('<b>'|safe)|escape }} {{ ('<b>'|safe)|forceescape }}",
      ],
      [
        "filesizeformat",
        "filesizeformat in decimal and binary units",
        "{{ 1|filesizeformat }} {{ 100|filesizeformat }} {{ 1000|filesizeformat }} {{ 1234567|filesizeformat }} {{ 1024|filesizeformat(true) }} {{ 1e30|filesizeformat }}",
      ],
      [
        "first-last",
        "first and last of lists, strings and dicts",
        "{{ [1,2,3]|first }}{{ [1,2,3]|last }}{{ 'abc'|first }}{{ {'k': 1, 'z': 2}|last }}",
      ],
      [
        "float-int",
        "float and int conversions with Python's rules",
        "{{ '3.5'|float }} {{ 'x'|float }} {{ '42'|int }} {{ '4.7'|int }} {{ '0x1A'|int(0, 16) }} {{ '1_000'|int }} {{ 'x'|int(-1) }} {{ 3.99|int }} {{ true|int }}",
      ],
      [
        "format",
        "format: positional and keyword arguments",
        "{{ '%s-%d'|format('a', 3) }} {{ '%(a)s!'|format(a=1) }} {{ '%5.2f|%-5d|%05d'|format(3.14159, 42, 42) }}",
      ],
      [
        "groupby",
        "groupby sorts, groups, and gives (grouper, list) tuples",
        "{% for g in users|groupby('age') %}{{ g.grouper }}:{{ g.list|map(attribute='name')|join(',') }};{% endfor %}|{{ users|groupby('age')|map(attribute='grouper')|list }}",
        { users: USERS },
      ],
      [
        "indent",
        "indent: first line, blank lines, a string width",
        "{{ 'a\\nb\\n\\nc'|indent(2) }}|{{ 'a\\n\\nb'|indent(2, true, true) }}|{{ 'a\\nb'|indent('> ') }}",
      ],
      [
        "items",
        "items of a dict, of an undefined value",
        "{{ d|items|list }} {{ missing|items|list }}",
        { d: { a: 1, b: [2] } },
      ],
      [
        "join",
        "join with a separator and an attribute",
        "{{ [1, 2, 3]|join('-') }} {{ users|join(', ', attribute='name') }}",
        { users: USERS },
      ],
      [
        "length-count-list",
        "length, count and list",
        "{{ 'héllo😀'|length }} {{ {'a': 1}|count }} {{ 'abc'|list }} {{ {'a': 1, 'b': 2}|list }}",
      ],
      [
        "lower-upper-title",
        "lower, upper and Jinja's title",
        "{{ 'AbC'|lower }} {{ 'ß'|upper }} {{ 'hello wORLD-x (y) [z] it\\'s'|title }}",
      ],
      [
        "map",
        "map by filter and by attribute, with a default",
        "{{ ['a','b']|map('upper')|list }} {{ users|map(attribute='name')|list }} {{ [{'x': 1}, {}]|map(attribute='x', default=0)|list }}",
        { users: USERS },
      ],
      [
        "min-max",
        "min and max, case-insensitive, by attribute",
        "{{ ['b', 'A', 'c']|min }} {{ ['b', 'A', 'c']|max }} {{ ['b', 'A', 'c']|max(case_sensitive=true) }} {{ users|max(attribute='age')|attr('name') }}",
        { users: USERS },
      ],
      [
        "pprint",
        "pprint sorts dict keys and wraps at 80 columns",
        "{{ {'b': 1, 'a': [1, 2], 'c': 'x'}|pprint }}\n{{ range(30)|list|pprint }}\n{{ {'first key': 'a long value ' * 3, 'second key': [1, 2, 3] * 5}|pprint }}",
      ],
      [
        "reject-select",
        "select and reject with and without tests",
        "{{ [0, 1, 2, 3, none]|select|list }} {{ [1, 2, 3, 4]|reject('even')|list }} {{ ['a', 'b', 'c']|select('in', ['a', 'c'])|list }}",
      ],
      [
        "selectattr-rejectattr",
        "selectattr and rejectattr",
        "{{ users|selectattr('active')|map(attribute='name')|list }} {{ users|rejectattr('age', 'gt', 26)|map(attribute='name')|list }} {{ users|selectattr('name', 'equalto', 'Bo')|list|length }}",
        { users: USERS },
      ],
      [
        "replace",
        "replace all and a count",
        "{{ 'aaa'|replace('a', 'b') }} {{ 'aaa'|replace('a', 'b', 2) }} {{ 'abc'|replace('', '-') }}",
      ],
      [
        "reverse",
        "reverse a string and a list",
        "{{ 'abc'|reverse }} {{ [1, 2, 3]|reverse|list }} {{ (1, 2)|reverse|list }}",
      ],
      [
        "round",
        "round: Python's binary floats, half to even, ceil and floor",
        "{{ 2.675|round(2) }} {{ 0.125|round(2) }} {{ 2.5|round }} {{ 3.5|round }} {{ 42|round }} {{ 1250|round(-2) }} {{ 1.15|round(1) }} {{ 2.1|round(method='ceil') }} {{ -2.5|round(1, 'floor') }} {{ 42|round(method='ceil') }}",
      ],
      ["safe-string", "safe and string", "{{ '<b>'|safe }} {{ 12|string ~ 'x' }} {{ [1, 'a']|string }}"],
      [
        "slice",
        "slice into columns, with a fill value",
        "{{ [1,2,3,4,5]|slice(2)|list }} {{ [1,2,3,4,5]|slice(3, 'x')|list }}",
      ],
      [
        "sort",
        "sort: case, reverse, several attributes, stability",
        "{{ ['b', 'A', 'a']|sort }} {{ ['b', 'A', 'a']|sort(case_sensitive=true) }} {{ [3, 1, 2]|sort(reverse=true) }} {{ users|sort(attribute='age,name')|map(attribute='name')|join }} {{ users|sort(attribute='age', reverse=true)|map(attribute='name')|join }}",
        { users: USERS },
      ],
      [
        "sort-nones",
        "sorting equal unorderable values does not compare them",
        "{{ [none, none]|sort }} {{ [{}, {}]|sort }}",
      ],
      [
        "striptags",
        "striptags removes tags and comments, collapses spaces, unescapes",
        "{{ '<p>Hello   <b>World</b></p><!-- c --> &amp; &lt;3'|striptags }}",
      ],
      [
        "sum",
        "sum with an attribute and a start",
        "{{ [1, 2, 3]|sum }} {{ [1.5, 2]|sum }} {{ users|sum(attribute='age') }} {{ [[1], [2]]|sum(start=[]) }}",
        { users: USERS },
      ],
      [
        "tojson",
        "tojson with transformers' arguments",
        "{{ d|tojson }}|{{ d|tojson(indent=2) }}|{{ d|tojson(separators=(',', ':')) }}|{{ d|tojson(sort_keys=true) }}|{{ d|tojson(ensure_ascii=true) }}",
        { d: { b: [1, F(2), null], a: "é😀", c: true } },
      ],
      [
        "trim-truncate",
        "trim with characters, truncate with leeway and killwords",
        "[{{ '  x  '|trim }}][{{ 'xxaxx'|trim('x') }}][{{ 'hello world foo bar'|truncate(9) }}][{{ 'hello world foo bar'|truncate(9, true) }}][{{ 'hello world'|truncate(5, leeway=0) }}]",
      ],
      [
        "unique",
        "unique: case-insensitive, by attribute",
        "{{ ['a', 'A', 'b', 'a']|unique|list }} {{ ['a', 'A']|unique(case_sensitive=true)|list }} {{ users|unique(attribute='age')|map(attribute='name')|list }}",
        { users: USERS },
      ],
      [
        "urlencode",
        "urlencode strings, dicts and pairs",
        "{{ 'a b&c/é?'|urlencode }} {{ {'a': 'b c', 'x': 1}|urlencode }} {{ [('k', 'v w')]|urlencode }}",
      ],
      [
        "urlize",
        "urlize links URLs and addresses",
        "{{ 'see www.example.com, or mail a@b.org (http://x.org/path).'|urlize }}",
      ],
      [
        "wordcount-wordwrap",
        "wordcount and wordwrap",
        "{{ 'hello wörld 42 foo_bar'|wordcount }}|{{ 'The quick brown fox jumps over the lazy dog'|wordwrap(10) }}|{{ 'a-very-long-hyphenated-word'|wordwrap(7) }}",
      ],
      [
        "xmlattr",
        "xmlattr skips none and undefined, escapes values",
        "<a{{ {'class': 'x', 'id': none, 'data': '<\"&', 'href': missing}|xmlattr }}>",
      ],
    ],
  ],
  tests: [
    "tests Jinja2 3.1 defines",
    [
      [
        "types",
        "type tests",
        "{{ 1 is integer }}{{ 1.0 is float }}{{ true is boolean }}{{ true is number }}{{ 1 is number }}{{ 'a' is string }}{{ {} is mapping }}{{ none is none }}{{ [] is sequence }}{{ {} is sequence }}{{ 'a' is iterable }}{{ 3 is iterable }}",
      ],
      [
        "defined",
        "defined and undefined",
        "{{ x is defined }}{{ y is defined }}{{ y is undefined }}{{ none is defined }}",
        { x: 1 },
      ],
      [
        "numbers",
        "odd, even, divisibleby",
        "{{ 3 is odd }}{{ 4 is even }}{{ 3.0 is odd }}{{ 9 is divisibleby 3 }}{{ 10 is divisibleby(4) }}",
      ],
      [
        "case",
        "lower and upper stringify what they test",
        "{{ 'abc' is lower }}{{ 'ABC' is upper }}{{ 'aB' is lower }}{{ [1, 'a'] is lower }}{{ none is upper }}",
      ],
      [
        "comparisons",
        "comparison tests and their aliases",
        "{{ 2 is eq 2 }}{{ 2 is equalto 2 }}{{ 2 is ne 3 }}{{ 2 is lt 3 }}{{ 2 is lessthan 3 }}{{ 3 is le 3 }}{{ 4 is gt 3 }}{{ 4 is greaterthan 3 }}{{ 3 is ge 4 }}",
      ],
      [
        "in-sameas",
        "in and sameas",
        "{{ 1 is in [1, 2] }}{{ 'a' is in 'abc' }}{{ 'k' is in {'k': 1} }}{{ none is sameas none }}{{ x is sameas x }}",
        { x: [1] },
      ],
      [
        "callable-escaped",
        "callable and escaped",
        "{{ range is callable }}{{ 'a' is callable }}{{ missing is callable }}{{ ('a'|safe) is escaped }}{{ 'a' is escaped }}{{ ('a'|e) is escaped }}",
      ],
      [
        "filter-test",
        "filter and test check the environment's names",
        "{{ 'upper' is filter }}{{ 'nope' is filter }}{{ 'odd' is test }}{{ 'tojson' is filter }}",
      ],
      [
        "true-false",
        "true and false test identity, not truthiness",
        "{{ true is true }}{{ 1 is true }}{{ false is false }}{{ 0 is false }}",
      ],
    ],
  ],
  formatting: [
    "Python's % formatting, str.format and float printing",
    [
      [
        "percent-tuple",
        "% with a tuple",
        "{{ '%s and %s' % ('a', 'b') }} {{ '%d items' % (3,) }} {{ '%s' % ((1, 2),) }}",
      ],
      [
        "percent-dict",
        "% with a mapping",
        "{{ '%(name)s is %(age)d' % {'name': 'al', 'age': 30} }} {{ '%s' % {'a': 1} }}",
      ],
      [
        "percent-single",
        "% with one value: lists and dicts are single arguments",
        "{{ '%s' % [1, 2] }} {{ '%s' % none }} {{ '%r' % 'x' }} {{ '%d' % 3.7 }} {{ '%x' % 255 }} {{ '%c' % 65 }}",
      ],
      [
        "percent-flags",
        "% flags, width and precision",
        "[{{ '%5s|%-5s|%05.1f|%+d|% d|%#o|%#x|%.3s|%*d' % ('a', 'b', 3.14159, 4, 5, 8, 255, 'abcdef', 4, 7) }}]",
      ],
      [
        "percent-floats",
        "% float conversions round half to even on the binary value",
        "{{ '%.2f %.1f %.0f %e %g %G %.3g' % (2.675, 0.25, 2.5, 12345.678, 0.00001234, 1e20, 1234567.0) }}",
      ],
      ["percent-errors", "% raises Python's errors", "{{ '%s %s' % ('a',) }}"],
      ["percent-not-all-converted", "a value left over raises", "{{ 'x' % 5 }}"],
      ["percent-unsupported", "an unknown conversion raises with its index", "{{ 'ab %y' % 1 }}"],
      [
        "str-format-positional",
        "str.format with automatic and manual fields",
        "{{ '{} {}'.format(1, 'a') }} {{ '{0}{1}{0}'.format('a', 'b') }} {{ '{x}-{y}'.format(x=1, y=2) }}",
      ],
      [
        "str-format-spec",
        "str.format's format spec",
        "{{ '{:>8.3f}|{:+,}|{:e}|{:g}|{:%}|{:b}|{:#x}|{:08.2f}|{:^9}|{:*<6}|{!r}|{!a}'.format(3.14159, 1234567, 0.00012, 1e20, 0.25, 5, 255, -3.14159, 'mid', 'l', 'q', 'é') }}",
      ],
      [
        "str-format-fields",
        "str.format looks attributes and items up through the sandbox",
        "{{ '{0[a]}|{0.a}|{1[0]}'.format({'a': 5}, [7]) }}",
      ],
      ["str-format-errors", "str.format raises Python's errors", "{{ '{} {}'.format(1) }}"],
      ["str-format-switch", "mixing manual and automatic numbering raises", "{{ '{0} {}'.format(1, 2) }}"],
      ["format-map", "str.format_map", "{{ '{a}-{b}'.format_map({'a': 1, 'b': 2}) }}"],
      [
        "float-repr",
        "floats print as Python prints them",
        "{{ 1.0 }} {{ 1e20 }} {{ 1e16 }} {{ 1e-7 }} {{ 0.1 + 0.2 }} {{ 10 / 4 }} {{ 7 / 7 }} {{ -0.0 }} {{ 1.5e300 * 1e10 }} {{ 2 ** -1 }}",
      ],
      [
        "float-variables",
        "floats from data keep their Python form",
        "{{ x }} {{ x|string }} {{ [x, y] }} {{ x|tojson }} {{ x is float }}",
        { x: F(20), y: 2.5 },
      ],
      [
        "big-integers",
        "big integers keep every digit",
        "{{ x }} {{ x + 1 }} {{ x * 2 }} {{ 2 ** 100 }} {{ x|tojson }}",
        { x: BIG("123456789012345678901234567890") },
      ],
      [
        "float-division",
        "floor division and modulo of floats",
        "{{ 1 // 0.1 }} {{ 1 % 0.1 }} {{ 5.0 % -1 }} {{ -7.5 // 2 }} {{ -7 // 2 }} {{ -7 % 3 }}",
      ],
    ],
  ],
  "lazy-semantics": [
    "what Python evaluates lazily or at compile time",
    [
      ["generator-tojson", "a generator is not JSON serializable", "{{ [1, 2]|map('string')|tojson }}"],
      ["generator-length", "a generator has no len()", "{{ [1, 2]|select|length }}"],
      [
        "generator-index",
        "a generator cannot be indexed: the item is undefined",
        "{{ ([1, 2]|select)[0] is defined }}",
      ],
      [
        "generator-once",
        "a generator iterates once",
        "{% set g = [1, 2, 3]|select %}{{ g|list }}{{ g|list }}",
      ],
      [
        "generator-truthy",
        "a generator is true even when empty",
        "{{ 'yes' if []|select else 'no' }} {{ 'yes' if []|select|list else 'no' }}",
      ],
      [
        "generator-in-loop",
        "a loop over a generator, with loop.length and loop.last",
        "{% for x in [3, 1, 2]|select %}{{ x }}{{ loop.length }}{{ loop.last }};{% endfor %}",
      ],
      ["reverse-iterator", "reverse of a list is an iterator: no len()", "{{ [1, 2]|reverse|length }}"],
      [
        "dict-views",
        "keys(), values() and items() are views",
        "{{ d.items() }} {{ d.keys() }} {{ d.values() }} {{ d.keys()|length }} {{ 'a' in d.keys() }} {{ d.items()|list }}",
        { d: { a: 1, b: 2 } },
      ],
      ["dict-view-tojson", "a dict view is not JSON serializable", "{{ d.items()|tojson }}", { d: { a: 1 } }],
      [
        "unknown-filter-untaken-branch",
        "an unknown filter in an if branch that does not run raises nothing",
        "{% if false %}{{ x|from_json }}{% endif %}ok",
      ],
      [
        "unknown-filter-taken-branch",
        "an unknown filter in an if branch that runs raises at runtime",
        "{% if true %}{{ x|from_json }}{% endif %}ok",
      ],
      [
        "unknown-filter-outside-if",
        "an unknown filter outside an if is an error when compiling",
        "{% if false %}{% for i in [] %}{{ x|from_json }}{% endfor %}{% endif %}ok",
      ],
      [
        "unknown-test-inline-if",
        "an unknown test in an inline if that does not run raises nothing",
        "{{ 1 if true else (x is nosuchtest) }}",
      ],
      [
        "constant-and",
        "a constant left side of and drops the right side when compiling",
        "{{ false and x|nosuchfilter }}",
      ],
      [
        "constant-slice",
        "slicing a constant goes through the sandbox's lenient lookup",
        "[{{ 1[1:3] }}]{{ 1[1:3]|list }}",
      ],
      ["variable-slice", "slicing a variable that cannot be sliced raises", "{{ n[1:3] }}", { n: 1 }],
    ],
  ],
  markup: [
    "markupsafe's Markup with autoescape off, as transformers sets it",
    [
      [
        "concatenate",
        "Markup + str escapes the str",
        "{{ ('<a>'|safe) + '<b>' }}|{{ '<b>' + ('<a>'|safe) }}|{{ ('<a>'|safe) ~ '<b>' }}",
      ],
      ["repr", "a Markup in a list prints its repr", "{{ ['<a>'|safe] }}"],
      [
        "methods",
        "string methods keep a Markup and escape what joins it",
        "{{ ('<a>'|safe)|upper + '&' }}|{{ ('%s'|safe) % '<' }}|{{ ('<i>'|safe).join(['<', '>']) }}|{{ ('{}'|safe).format('<') }}",
      ],
      [
        "escaped-test",
        "is escaped is true for Markup",
        "{{ 'a'|safe is escaped }}|{{ 'a' is escaped }}|{{ 'a'|e is escaped }}",
      ],
      [
        "autoescape-block",
        "an autoescape block escapes what it prints",
        "{% autoescape true %}{{ '<x>' }}{{ '<y>'|safe }}{% endautoescape %}{{ '<z>' }}",
      ],
      ["markup-times", "Markup times a string raises Python's error", "{{ ('a'|safe) * 'b' }}"],
    ],
  ],
  "control-flow": [
    "loops, macros, blocks and globals",
    [
      [
        "loop-variables",
        "the loop variable",
        "{% for x in 'abc' %}{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}{{ loop.first }}{{ loop.last }}{{ loop.length }}{{ loop.cycle('o', 'e') }}{% if not loop.first %}{{ loop.previtem }}{% endif %}{% if not loop.last %}{{ loop.nextitem }}{% endif %};{% endfor %}",
      ],
      ["loop-changed", "loop.changed", "{% for x in [1, 1, 2, 2, 1] %}{{ loop.changed(x) }}{% endfor %}"],
      [
        "loop-filter",
        "a loop filter and loop.length",
        "{% for x in range(6) if x is odd %}{{ x }}/{{ loop.length }} {% endfor %}",
      ],
      [
        "recursive-loop",
        "a recursive loop with loop.depth",
        "{% for x in [1, [2, [3]]] recursive %}{% if x is iterable %}[{{ loop(x) }}]{% else %}{{ x }}:{{ loop.depth }}{% endif %}{% endfor %}",
      ],
      [
        "for-else",
        "the else block runs when nothing iterated",
        "{% for x in [] %}x{% else %}empty{% endfor %}",
      ],
      [
        "for-else-after-break",
        "the else block also runs when the loop broke before finishing an iteration",
        "{% for x in [1, 2] %}{{ x }}{% break %}{% else %}else{% endfor %}",
      ],
      [
        "break-continue",
        "break and continue",
        "{% for i in range(10) %}{% if i == 2 %}{% continue %}{% endif %}{% if i > 4 %}{% break %}{% endif %}{{ i }}{% endfor %}",
      ],
      [
        "loop-scoping",
        "a set inside a loop does not outlive its iteration",
        "{% set x = 0 %}{% for i in [1, 2] %}{% if i == 1 %}{% set x = 'a' %}{% endif %}{{ x }}{% endfor %}{{ x }}",
      ],
      [
        "namespace",
        "namespace attributes assigned inside a loop",
        "{% set ns = namespace(n=0, found=false) %}{% for i in range(4) %}{% set ns.n = ns.n + i %}{% endfor %}{{ ns.n }} {{ ns }}",
      ],
      [
        "macro-attributes",
        "a macro's name, arguments and repr",
        "{% macro greet(name, punct='!') %}Hi {{ name }}{{ punct }}{% endmacro %}{{ greet('al') }} {{ greet.name }} {{ greet.arguments }} {{ greet.catch_kwargs }} {{ greet }}",
      ],
      [
        "macro-varargs-kwargs",
        "varargs, kwargs and caller",
        "{% macro m(a) %}{{ a }}{{ varargs }}{{ kwargs }}{% endmacro %}{{ m(1, 2, 3, z=4) }}|{% macro w() %}<{{ caller() }}>{% endmacro %}{% call w() %}inside{% endcall %}",
      ],
      [
        "macro-errors",
        "calling a macro with an unknown keyword raises",
        "{% macro m(a) %}{{ a }}{% endmacro %}{{ m(b=1) }}",
      ],
      [
        "call-block-arguments",
        "a call block with parameters",
        "{% macro each(items) %}{% for i in items %}{{ caller(i) }}{% endfor %}{% endmacro %}{% call(x) each([1, 2]) %}<{{ x }}>{% endcall %}",
      ],
      [
        "raw-lstrip",
        "lstrip_blocks strips the indentation before an endraw, as before any block tag",
        "  {% raw %}\n  {{ x }}\n  {% endraw %}\n|{% raw -%}\n  {% endraw %}|",
      ],
      [
        "caller-is-anonymous",
        "a call block's caller is a macro without a name",
        "{% macro w() %}{{ caller }}|{{ caller.name }}|{{ caller() }}{% endmacro %}{% call w() %}x{% endcall %}",
      ],
      [
        "caller-too-many-arguments",
        "a caller given more arguments than the call block takes raises, naming the macro None",
        "{% macro w() %}{{ caller(1) }}{% endmacro %}{% call w() %}x{% endcall %}",
      ],
      [
        "assigned-before-read-is-undefined",
        "a name a frame assigns before reading it is undefined in the frame until assigned, nested loops included",
        "{% for u in [1] %}[{{ w }}]{% endfor %}{% set w = 2 %}{% for i in [1, 2] %}{% for j in [1] %}<{{ y }}>{% endfor %}{% set y = i %}{{ y }}{% endfor %}",
        { w: 1, y: 5 },
      ],
      [
        "assigned-in-a-branch-resolves",
        "a name assigned only inside an if, or read before it is assigned, keeps the context's value",
        "{% for u in [1] %}{{ w }}{% endfor %}{% if true %}{% set w = 2 %}{% endif %}{% for u in [1] %}{{ v }}{% endfor %}{{ v }}{% set v = 3 %}",
        { w: 1, v: 4 },
      ],
      [
        "filter-block",
        "a filter block",
        "{% filter upper %}abc{{ 'd' }}{% endfilter %}|{% filter replace('a', 'b') %}aaa{% endfilter %}",
      ],
      ["set-block", "a set block with a filter", "{% set x | trim %}  inner {{ 1 }}  {% endset %}[{{ x }}]"],
      [
        "with-block",
        "a with block scopes its names",
        "{% with a = 1, b = 2 %}{{ a + b }}{% endwith %}[{{ a }}]",
      ],
      [
        "blocks",
        "a block renders in place and again through self",
        "a{% block b %}[{{ 1 }}]{% endblock %}c{{ self.b() }}",
      ],
      [
        "cycler-joiner",
        "cycler and joiner",
        "{% set c = cycler('a', 'b') %}{{ c.current }}{{ c.next() }}{{ c.next() }}{{ c.current }}{{ c.reset() }}{{ c.current }}|{% set j = joiner('-') %}{{ j() }}x{{ j() }}y",
      ],
      [
        "range",
        "range objects",
        "{{ range(3) }} {{ range(1, 10, 3) }} {{ range(3)|list }} {{ range(10)[2:5] }} {{ range(10)[-1] }} {{ 2 in range(3) }} {{ range(0) }} {{ range(3)|length }}",
      ],
      ["range-limit", "the sandbox refuses huge ranges", "{{ range(100001)|length }}"],
      [
        "dict-global",
        "dict() from keywords and pairs",
        "{{ dict(a=1, b=[2]) }} {{ dict([('x', 1), ('y', 2)]) }}",
      ],
      ["print-statement", "the print statement", "{% print 'a', 1 + 1 %}"],
    ],
  ],
  values: [
    "Python's printing of values",
    [
      ["constants", "Python's constants", "{{ True }} {{ false }} {{ None }} {{ none }} {{ [true, none] }}"],
      [
        "repr",
        "str() of lists, dicts and tuples uses repr",
        "{{ [1, 'a', none, true, 2.5, {'k': [1.0]}] }} {{ {'a': \"it's\", 'b': 'say \"hi\"'} }} {{ ('x',) }} {{ (1, 2) }}",
      ],
      [
        "repr-escapes",
        "repr escapes control and non-printable characters",
        "{{ ['é', '\\x00', '\\xa0', 'a\\'b', '😀', '\\u2028', '\\t\\n', '\\x7f'] }}",
      ],
      [
        "string-slicing",
        "string slicing by code point",
        "{{ 'héllo😀'[-2:] }} {{ 'héllo😀'[::-1] }} {{ 'hello'[1:4:2] }}",
      ],
      [
        "bytes",
        "str.encode gives bytes",
        "{{ 'é'.encode() }} {{ 'é'.encode()|length }} {{ 'é'.encode().decode() }} {{ 'ab'.encode()[0] }}",
      ],
      [
        "mixed-sort-error",
        "sorting mixed types raises the comparison Python makes first",
        "{{ [3, 1, 'a', 2]|sort }}",
      ],
      [
        "comparisons",
        "comparisons and chains",
        "{{ 1 < 2 < 3 }}{{ 1 < 3 < 2 }}{{ 1 == 1.0 }}{{ [1] == [1.0] }}{{ (1,) == [1] }}{{ [1, 2] < [1, 3] }}{{ 'b' > 'a' }}{{ 1 in {1: 2} }}",
      ],
      ["dict-keys-hash", "1, 1.0 and True are one dict key", "{{ {1: 'a', True: 'b'} }} {{ {1: 'a'}[1.0] }}"],
    ],
  ],
  methods: [
    "methods of str, dict and list",
    [
      [
        "str-case",
        "case methods",
        "{{ 'hello wORLD'.title() }} {{ 'Hello World'.istitle() }} {{ 'Hello world'.istitle() }} {{ 'ǆa'.title() }} {{ 'ß'.casefold() }} {{ 'Hello'.swapcase() }}",
      ],
      [
        "str-split",
        "split, rsplit, splitlines, partition",
        "{{ 'a,b,,c'.split(',') }} {{ ' a  b '.split() }} {{ 'a b c'.rsplit(' ', 1) }} {{ 'a\\nb\\r\\nc'.splitlines() }} {{ 'a=b=c'.partition('=') }}",
      ],
      [
        "str-search",
        "find, count, startswith with tuples and bounds",
        "{{ 'abcb'.find('b') }}{{ 'abcb'.rfind('b') }}{{ 'abc'.find('z') }}{{ 'abcb'.count('b') }}{{ 'abc'.startswith(('x', 'a')) }}{{ 'abc'.endswith('b', 0, 2) }}",
      ],
      [
        "str-pad",
        "padding and stripping",
        "[{{ 'ab'.center(6, '*') }}][{{ 'ab'.ljust(4, '.') }}][{{ '42'.zfill(5) }}][{{ '-42'.zfill(5) }}][{{ 'xxaxx'.strip('x') }}][{{ 'a\\tb'.expandtabs(4) }}]",
      ],
      [
        "str-predicates",
        "is… predicates",
        "{{ '12'.isdigit() }}{{ '²'.isdigit() }}{{ '½'.isnumeric() }}{{ 'abc'.isalpha() }}{{ 'a1'.isalnum() }}{{ ' '.isspace() }}{{ 'a_1'.isidentifier() }}{{ 'é'.isascii() }}{{ 'ABC'.isupper() }}",
      ],
      ["str-translate", "maketrans and translate", "{{ 'hello'.translate(''.maketrans('lo', '01')) }}"],
      ["str-arity", "a method called with too many arguments raises CPython's message", "{{ 'a'.upper(1) }}"],
      [
        "dict-methods",
        "get, keys, values, items, copy",
        "{{ d.get('a') }} {{ d.get('z', 'no') }} {{ d.get('z') }} {{ d.keys()|list }} {{ d.values()|list }} {{ d.copy() == d }}",
        { d: { a: 1, b: 2 } },
      ],
      [
        "list-methods",
        "index, count, copy",
        "{{ [1, 2, 2].count(2) }} {{ [1, 2, 3].index(2) }} {{ [1, 2].copy() }}",
      ],
      ["mutation-is-unsafe", "the immutable sandbox refuses mutating methods", "{{ [1].append(2) }}"],
      [
        "number-methods",
        "int and float methods",
        "{{ (255).bit_length() }} {{ 1.5.is_integer() }} {{ 2.0.is_integer() }} {{ 0.5.as_integer_ratio() }}",
      ],
    ],
  ],
  errors: [
    "what raises, with Python's exception and message",
    [
      ["syntax-unknown-tag", "an unknown tag names the block to close", "{% if true %}{% do x %}{% endif %}"],
      ["syntax-nesting", "a wrong end tag", "{% for x in y %}{% endif %}"],
      ["syntax-eof", "an unclosed block", "{% if true %}x"],
      ["syntax-expression", "a missing expression", "line\n{{ 1 + }}"],
      ["syntax-empty-target", "a loop without a target", "{% for %}{% endfor %}"],
      [
        "syntax-target-not-assignable",
        "an assignment target that is not a name or a tuple of names names its node",
        "{% for a, 1 in x %}{% endfor %}",
      ],
      ["syntax-list-target", "a list is no assignment target", "{% set [a, b] = [1, 2] %}"],
      [
        "syntax-trailing-comma-target",
        "a trailing comma reads the loop's in as a name",
        "{% for a, in x %}{% endfor %}",
      ],
      ["undefined-attribute", "an attribute of an undefined value", "{{ missing.attr }}"],
      [
        "undefined-inline-if",
        "the undefined value of an inline if without else names its line",
        "\n{{ (x if false).y }}",
      ],
      ["type-error-concat", "str + int", "{{ 'a' + 1 }}"],
      ["zero-division", "division by zero", "{{ 1 / 0 }}"],
      ["unpack", "unpacking the wrong number of values", "{% for a, b in [1] %}{% endfor %}"],
      ["raise-exception", "raise_exception raises TemplateError", "{{ raise_exception('bad turn') }}"],
      [
        "recursion",
        "recursion past Python's limit",
        "{% macro r(n) %}{{ r(n + 1) }}{% endmacro %}{{ r(0) }}",
      ],
      ["no-loader", "include needs a loader the sandbox does not have", "{% include 'other.jinja' %}"],
      ["filter-arguments", "a filter called with an unknown keyword", "{{ 'a'|center(nope=1) }}"],
      [
        "map-unknown-filter",
        "map with an unknown filter name raises when iterated",
        "{{ [1]|map('nosuch')|list }}",
      ],
    ],
  ],
};
