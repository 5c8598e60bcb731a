/**
 * Where we deliberately read a vLLM test case otherwise than the test states, and why (each reason is a decision in
 * docs/decisions.md or a rule of the package README). The test asserts each difference exactly: the fields where we
 * depart, and what we give there; a change in either direction (agreeing, or differing otherwise) fails.
 */

/** Why we differ: a short name and the reason, one line each. */
export const REASONS = {
  SEP: {
    name: "separators",
    reason:
      "the newline a template writes before a call is syntax, not content (docs/decisions.md: separators are syntax); vLLM keeps it",
  },
  REASONING: {
    name: "reasoning",
    reason:
      "a reasoning block is `reasoning`, not content (docs/decisions.md: reasoning opens the text or follows a call); this vLLM parser leaves it in content",
  },
  LOSS: {
    name: "no silent loss",
    reason: "text after or between calls stays content (never silent loss); vLLM's parser drops it",
  },
  UNCLOSED: {
    name: "unclosed GLM call",
    reason:
      "complete pairs then the end of the text are a call without `</tool_call>` (`call_unclosed`, vector r10-glm-unclosed-at-end: a GLM output cut at a stop sequence); vLLM leaves it in content",
  },
  NONJSON: {
    name: "non-JSON arguments",
    reason:
      "a call whose argument text is not JSON stays in content (`call_invalid`; docs/decisions.md: the deltas already sent must add up to the final arguments); vLLM returns it with the broken text as arguments",
  },
  TRUNC: {
    name: "truncated call",
    reason:
      "text that ends inside a call stays in content (`call_truncated`): a truncated call that runs is worse than none; vLLM returns the cut arguments (Mistral) or repairs them (Apertus, Hy3, Hy4)",
  },
  PROSE: {
    name: "JSON in prose",
    reason:
      'Llama 3 JSON calls are read only at the very start of the text or after `<|python_tag|>` (prose holds `{"name": …}`); vLLM finds them anywhere and drops the text around them',
  },
  XLAMPROSE: {
    name: "list after prose",
    reason:
      "xLAM's unmarked list is a call list only where the content begins (docs/decisions.md: a syntax with no marker reads calls only where they cannot be prose); vLLM also reads a fenced list after prose",
  },
  XLAMMARK: {
    name: "other families' markers",
    reason:
      "xLAM's template writes a bare list; `[TOOL_CALLS][…]` (Mistral's wrapper, which `mistral-list` reads) and `<tool_call>[…]</tool_call>` are not its syntax (docs/decisions.md, xLAM); vLLM's xLAM parser accepts both",
  },
  CITATIONS: {
    name: "citation markup",
    reason:
      "Command A's citation spans (`<co>…</co: 0:[1]>`) are kept as written: their document indices are the answer's grounding (never silent loss); vLLM's cohere_melody strips them",
  },
  DSML: {
    name: "two DSML wrappers",
    reason:
      "one syntax reads DeepSeek V3.2's `<｜DSML｜function_calls>` and V4's `<｜DSML｜tool_calls>` (package README, DeepSeek); vLLM's V4 parser refuses V3.2's wrapper",
  },
  SUFFIX: {
    name: "token suffix",
    reason:
      "`hy-v3` and `hy-v4` read the published checkpoints' tokens (`<tool_calls:opensource>`, and unsuffixed); another checkpoint's suffix is given to `hySyntax({ suffix })` (docs/decisions.md, Hy3 / Hy4); vLLM reads it from the tokenizer",
  },
  SECTION: {
    name: "section cut short",
    reason:
      "a `<tool_calls>` section cut short keeps its complete calls (`section_unclosed`: a length stop before its closing tag), as Kimi's does; vLLM's strict Hy4 parser returns the whole text as content",
  },
  NOTPYTHON: {
    name: "not a Python literal",
    reason:
      "a pythonic call whose value is no Python literal and has no one reading (an unescaped quote inside a string may end it or belong to it) stays content (`call_invalid`); a set and a raw line break inside a string have one and are read (`set_as_list`, `string_line_break`); vLLM repairs all",
  },
} as const;

/** One deliberate difference: why, the fields `mismatches` reports, and what our parse gives. */
export interface Difference {
  kind: string;
  fields: string[];
  ours: {
    /** Our calls' names. */
    calls: string[];
    /** Our content, as `normalContent` reads it. */
    content: string | null;
    /** Our reasoning, as `normalContent` reads it (or its first 60 characters). */
    reasoning?: string | null;
    reasoningStartsWith?: string;
  };
}

/** The cases of the fixture we read otherwise than vLLM's test states, by case id. */
export const DIFFERENCES: Record<string, Difference> = {
  "lfm2-tool-parser-nested-quote": {
    kind: "NOTPYTHON",
    fields: ["calls.count"],
    ours: {
      calls: [],
      content:
        "<|tool_call_start|>[bash(command='sed -n '360,450p' /testbed/sympy/matrices/common.py')]<|tool_call_end|>",
      reasoning: null,
    },
  },
  "lfm2-tool-parser-nested-python-c": {
    kind: "NOTPYTHON",
    fields: ["calls.count"],
    ours: {
      calls: [],
      content:
        "<|tool_call_start|>[bash(command='cd /testbed && python3 -c \"from sympy import latex\nprint(latex(3*x, mul_symbol='\\,'))\"')]<|tool_call_end|>",
      reasoning: null,
    },
  },
  "lfm2-tool-parser-echoed-body": {
    kind: "LOSS",
    fields: ["content"],
    ours: {
      calls: ["grocery.orderIngredients"],
      content:
        "[grocery.orderIngredients(ingredientList=[{'name': 'apple', 'quantity': '2'}], deliveryAddress='123 Main St')]<|tool_call_end|>",
      reasoning: null,
    },
  },
  "granite4-tool-parser-test-tool-call-parser-complex": {
    kind: "SEP",
    fields: ["content"],
    ours: {
      calls: ["find_bbox", "get_stock_price", "find_bbox"],
      content:
        "Here goes the bbox call:  Now the stock price call: \n  Now another bbox call: \n  See? I'm a helpful assistant.",
      reasoning: null,
    },
  },
  "glm4-moe-tool-parser-test-extract-tool-calls-with-thinking-tags": {
    kind: "REASONING",
    fields: ["content"],
    ours: {
      calls: ["get_weather"],
      content: "I will help you get the weather.",
      reasoning: "I want to get the weather.",
    },
  },
  "glm4-moe-tool-parser-test-extract-tool-calls-mixed-content": {
    kind: "LOSS",
    fields: ["content"],
    ours: {
      calls: ["get_weather", "get_weather"],
      content:
        "I will help you get the weather info.\n\n\nmeaningwhile, I will also check the weather in Shanghai.",
      reasoning: null,
    },
  },
  "glm4-moe-tool-parser-test-extract-tool-calls-incomplete-tool-call": {
    kind: "UNCLOSED",
    fields: ["calls.count", "content"],
    ours: { calls: ["get_weather"], content: null, reasoning: null },
  },
  "kimi-k2-tool-parser-test-extract-tool-calls-invalid-json": {
    kind: "NONJSON",
    fields: ["calls.count", "calls[0].name"],
    ours: {
      calls: ["valid_get_weather"],
      content:
        'I\'ll help you check the weather. <|tool_calls_section_begin|> <|tool_call_begin|>\nfunctions.invalid_get_weather:0 <|tool_call_argument_begin|> {"city": "Beijing" <|tool_call_end|>',
      reasoning: null,
    },
  },
  "deepseekv31-tool-parser-test-extract-tool-calls-with-multiple-tools": {
    kind: "LOSS",
    fields: ["content"],
    ours: { calls: ["foo", "bar"], content: "some prefix text some suffix text", reasoning: null },
  },
  "mistral-tool-parser-test-extract-tool-calls-complex": {
    kind: "TRUNC",
    fields: ["calls.count", "content"],
    ours: {
      calls: [],
      content: 'hi{hi[TOOL_CALLS]bash{"command": "print(\\"hello world!\\")\\nre.compile(r\'{}\')',
      reasoning: null,
    },
  },
  "llama3-json-tool-parser-test-extract-tool-calls-simple": {
    kind: "PROSE",
    fields: ["calls.count", "content"],
    ours: {
      calls: [],
      content:
        'Here is the result: {"name": "getOpenIncidentsTool", "parameters": {}} Would you like to know more?',
      reasoning: null,
    },
  },
  "llama3-json-tool-parser-test-extract-tool-calls-multiple-json-with-surrounding-text": {
    kind: "PROSE",
    fields: ["calls.count"],
    ours: {
      calls: [],
      content:
        'Here are the results: {"name": "searchTool", "parameters": {"query": "test1"}}; {"name": "getOpenIncidentsTool", "parameters": {}}; {"name": "searchTool", "parameters": {"query": "test2"}} Would you like to know more?',
      reasoning: null,
    },
  },
  "seed-oss-tool-parser-test-extract-tool-calls-tool-call-512-thinkg-budget": {
    kind: "REASONING",
    fields: ["content"],
    ours: {
      calls: ["get_weather"],
      content: null,
      reasoningStartsWith: "The user's current thinking budget is 512.</seed:cot_budget_",
    },
  },
  "seed-oss-tool-parser-test-extract-tool-calls-tool-call-unlimited-thinking-budget": {
    kind: "REASONING",
    fields: ["content"],
    ours: {
      calls: ["get_weather"],
      content: null,
      reasoningStartsWith: "Got it, let's see. The user asked for the weather in Barcelo",
    },
  },
  "seed-oss-tool-parser-test-streaming-tool-calls-tool-call-0-thinking-budget": {
    kind: "REASONING",
    fields: ["content"],
    ours: {
      calls: ["get_weather"],
      content: null,
      reasoningStartsWith: "</seed:cot_budget_reflect>\n</seed:cot_budget_reflect>\nThe cu",
    },
  },
  "hunyuan-a13b-tool-parser-test-hunyuan-a13b-tool-parser-extract-content-after-tool-call-should-be-stripped":
    {
      kind: "LOSS",
      fields: ["content"],
      ours: { calls: ["get_weather"], content: "Thank you!", reasoning: null },
    },
  "xlam-tool-parser-test-extract-tool-calls-single-tool-with-think-tag": {
    kind: "REASONING",
    fields: ["content"],
    ours: { calls: ["get_current_weather"], content: null, reasoning: "I'll help you with that." },
  },
  "xlam-tool-parser-test-extract-tool-calls-single-tool-with-json-code-block": {
    kind: "XLAMPROSE",
    fields: ["calls.count", "content"],
    ours: {
      calls: [],
      content:
        'I\'ll help you with that.\n```json\n[{"name": "get_current_weather", "arguments": {"city": "Dallas", "state": "TX", "unit": "fahrenheit"}}]\n```',
      reasoning: null,
    },
  },
  "xlam-tool-parser-test-extract-tool-calls-single-tool-with-tool-calls-tag": {
    kind: "XLAMMARK",
    fields: ["calls.count", "content"],
    ours: {
      calls: [],
      content:
        'I\'ll check the weather for you.[TOOL_CALLS][{"name": "get_current_weather", "arguments": {"city": "Dallas", "state": "TX", "unit": "fahrenheit"}}]',
      reasoning: null,
    },
  },
  "xlam-tool-parser-test-extract-tool-calls-single-tool-with-tool-call-xml-tags": {
    kind: "XLAMMARK",
    fields: ["calls.count", "content"],
    ours: {
      calls: [],
      content:
        'I\'ll help you check the weather.<tool_call>[{"name": "get_current_weather", "arguments": {"city": "Dallas", "state": "TX", "unit": "fahrenheit"}}]</tool_call>',
      reasoning: null,
    },
  },
  "xlam-tool-parser-test-extract-tool-calls-streaming-incremental-single-tool-with-tool-calls-tag": {
    kind: "XLAMMARK",
    fields: ["calls.count"],
    ours: {
      calls: [],
      content:
        '[TOOL_CALLS][{"name": "get_current_weather", "arguments": {"city": "Dallas", "state": "TX", "unit": "fahrenheit"}}]',
      reasoning: null,
    },
  },
  "xlam-tool-parser-test-extract-tool-calls-streaming-incremental-single-tool-with-tool-call-xml-tags": {
    kind: "XLAMMARK",
    fields: ["calls.count"],
    ours: {
      calls: [],
      content:
        'I can help with that.<tool_call>[{"name": "get_current_weather", "arguments": {"city": "Dallas", "state": "TX", "unit": "fahrenheit"}}]</tool_call>',
      reasoning: null,
    },
  },
  "apertus-tool-parser-testextracttoolcalls-test-incomplete-tool-call": {
    kind: "TRUNC",
    fields: ["calls.count"],
    ours: { calls: [], content: '<|tools_prefix|>[{"get_weather": {"location": "London"}', reasoning: null },
  },
  "cohere-command-tool-parser-testextracttoolcalls-cmd3-citations-no-tool-calls": {
    kind: "CITATIONS",
    fields: ["content", "reasoning"],
    ours: {
      calls: [],
      content: "foo <co>bar</co: 0:[1,2],1:[3,4]>",
      reasoning: "This is a rainbow <co>emoji: 🌈</co: 0:[1]>",
    },
  },
  "deepseekv4-tool-parser-test-function-calls-block-is-not-accepted": {
    kind: "DSML",
    fields: ["calls.count", "content"],
    ours: { calls: ["search"], content: null, reasoning: null },
  },
  "hy-truncated-stream-hy3-mid-value": {
    kind: "TRUNC",
    fields: ["calls.count"],
    ours: {
      calls: [],
      content:
        "<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2026",
      reasoning: null,
    },
  },
  "hy-truncated-stream-hy3-after-key-only": {
    kind: "TRUNC",
    fields: ["calls.count"],
    ours: {
      calls: [],
      content: "<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>",
      reasoning: null,
    },
  },
  "hy-truncated-stream-hy3-second-call": {
    kind: "TRUNC",
    fields: ["calls.count"],
    ours: {
      calls: ["get_weather"],
      content: "<tool_call>get_weather<tool_sep>\n<arg_key>date</arg_key>\n<arg_value>2026",
      reasoning: null,
    },
  },
  "hy-truncated-stream-hy4-mid-value": {
    kind: "TRUNC",
    fields: ["calls.count"],
    ours: {
      calls: [],
      content:
        "<tool_calls:opensource>\n<tool_call:opensource>get_weather<arg_key:opensource>city</arg_key:opensource><arg_value:opensource>Beijing</arg_value:opensource><arg_key:opensource>date</arg_key:opensource><arg_value:opensource>2026",
      reasoning: null,
    },
  },
  "hy-v4-tool-parser-regex-metacharacters-in-suffix": {
    kind: "SUFFIX",
    fields: ["calls.count"],
    ours: {
      calls: [],
      content: "<tool_calls:a+b(c><tool_call:a+b(c>get_current_date</tool_call:a+b(c></tool_calls:a+b(c>",
      reasoning: null,
    },
  },
  "hy-v4-tool-parser-strict-missing-tool-calls-end": {
    kind: "SECTION",
    fields: ["calls.count", "content"],
    ours: { calls: ["get_current_date"], content: null, reasoning: null },
  },
};
