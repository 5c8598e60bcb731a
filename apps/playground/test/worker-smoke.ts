// What each entry point does when a Web Worker (a global scope like an edge runtime's: no DOM, no Node) imports
// its workers bundle: one real call of the package, whose answer the test knows. An entry without its own line here
// is imported and its exports counted.

export interface Smoke {
  /** Module text: `m` is the entry's namespace; the last expression's value is posted back. */
  code: string;
  expected: unknown;
}

export const SMOKES: Readonly<Record<string, Smoke>> = {
  "@toolcall/core": {
    code: 'm.decodeArguments(\'{"city": "Paris",}\', { repairs: m.coreRepairs }).arguments',
    expected: { city: "Paris" },
  },
  "@toolcall/core/conformance": {
    code: "m.coreImplementation.decode('null', {}).status",
    expected: "null_literal",
  },
  "@toolcall/jinja": {
    code: "m.compileTemplate(\"{{ [1.0, True, None] }}{{ {'a': 1} | tojson }}\").render({})",
    expected: '[1.0, True, None]{"a": 1}',
  },
  "@toolcall/model-formats": {
    code: 'm.hermes.parse(\'<tool_call>\\n{"name": "f", "arguments": {"x": 1}}\\n</tool_call>\').toolCalls.map((c) => c.function)',
    expected: [{ name: "f", arguments: '{"x": 1}' }],
  },
  "@toolcall/model-formats/glm": {
    code: "m.glm47.parse('<tool_call>f<arg_key>x</arg_key><arg_value>v</arg_value></tool_call>').toolCalls.map((c) => c.function)",
    expected: [{ name: "f", arguments: '{"x": "v"}' }],
  },
  "@toolcall/qwen-templates": {
    code: "m.qwen3Coder.parse('<tool_call>\\n<function=f>\\n<parameter=x>\\nv\\n</parameter>\\n</function>\\n</tool_call>').toolCalls.map((c) => c.function)",
    expected: [{ name: "f", arguments: '{"x": "v"}' }],
  },
  "@toolcall/gemma-recovery": {
    code: "m.gemma4.parse('<|tool_call>call:f{x:<|\"|>v<|\"|>}<tool_call|>').toolCalls.map((c) => c.function)",
    expected: [{ name: "f", arguments: '{"x": "v"}' }],
  },
  "@toolcall/openai": {
    code: "m.sanitizeChatMessages([{ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: 'null' } }] }, { role: 'tool', tool_call_id: 'c1', content: 'ok' }]).messages[0].tool_calls[0].function.arguments",
    expected: "{}",
  },
  "@toolcall/langchain": {
    code: "m.fromNeutralMessages([{ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{\"a\": 1}' } }] }])[0].tool_calls[0].args",
    expected: { a: 1 },
  },
};

/**
 * The module a worker runs for `specifier`: import the entry, run its smoke (or count its exports), post the result
 * or the error.
 *
 * @example
 * workerModule("@toolcall/core");
 */
export function workerModule(specifier: string): string {
  const smoke = SMOKES[specifier];
  const value = smoke ? smoke.code : "Object.keys(m).length";
  return [
    `import * as m from ${JSON.stringify(specifier)};`,
    "try {",
    `  self.postMessage({ ok: true, value: (${value}) });`,
    "} catch (error) {",
    "  self.postMessage({ ok: false, error: String(error && error.stack || error) });",
    "}",
  ].join("\n");
}
