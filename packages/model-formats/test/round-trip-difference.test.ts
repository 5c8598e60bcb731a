import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type RoundTripResult, roundTrip, roundTripDifference } from "../src/index.js";

// Templates are read from the shared material beside the repository, never copied into it.
const templates = resolve(import.meta.dirname, "../../../../shared/templates");
const read = (name: string) => readFileSync(join(templates, `${name}.jinja`), "utf8");

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
const user = [{ role: "user", content: "Weather in Zürich?" }];

describe("roundTripDifference on real templates", () => {
  it("Qwen2.5 re-serialises compact arguments: the offset as index, UTF-8 bytes, line and column", () => {
    // Non-ASCII before the difference: the byte offset runs ahead of the string index.
    const output =
      'Wetter für Zürich 😀:\n<tool_call>\n{"name": "get_weather", "arguments": {"city":"Zürich"}}\n</tool_call>';
    const result = roundTrip({ template: read("Qwen-Qwen2.5-7B-Instruct"), output, messages: user, tools });
    expect(result.ok).toBe(false);
    const difference = roundTripDifference(result, output, { context: 12 });
    const offset = output.indexOf('"Zürich"}}');
    expect(difference).toEqual({
      offset,
      byteOffset: Buffer.byteLength(output.slice(0, offset)),
      line: 3,
      column: '{"name": "get_weather", "arguments": {"city":'.length + 1,
      inPrompt: false,
      before: 's": {"city":',
      output: '"Zürich"}}\n<',
      rendered: ' "Zürich"}}\n',
    });
    expect(difference?.byteOffset).toBe(offset + 4); // ü twice (1 more byte each), 😀 (4 bytes, 2 units)
  });

  it("a difference before the output begins (QwQ drops the reasoning its generation prompt opens)", () => {
    const output =
      'Okay.\n</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
    const result = roundTrip({ template: read("Qwen-QwQ-32B"), output, messages: user, tools });
    const difference = roundTripDifference(result, output);
    expect(difference).toMatchObject({ offset: 0, byteOffset: 0, line: 1, column: 1, inPrompt: true });
    // Both turns open `<|im_start|>assistant\n<t`: the prompt goes on `hink>`, the rendering `ool_call>`.
    expect(difference?.before).toBe("<|im_start|>assistant\n<t");
    expect(difference?.output).toBe("hink>\nOkay.\n</think>\n\n<tool_call");
    expect(difference?.rendered).toBe('ool_call>\n{"name": "get_weather"');
  });

  it("null when the round trip holds, or could not render", () => {
    const output = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
    const ok = roundTrip({ template: read("Qwen-Qwen2.5-7B-Instruct"), output, messages: user, tools });
    expect(ok.ok).toBe(true);
    expect(roundTripDifference(ok, output)).toBeNull();
    const raised = roundTrip({
      template: read("meta-llama-Llama-3.1-8B-Instruct"),
      output:
        '{"name": "get_weather", "parameters": {"city": "Paris"}}; {"name": "get_weather", "parameters": {"city": "Lyon"}}',
      messages: user,
      tools,
    });
    expect(raised.error).toMatch(/single tool-calls/);
    expect(roundTripDifference(raised, "")).toBeNull();
  });
});

/** A result as roundTrip gives it for a rendering `rendered` of `prompt` + an output, built by hand. */
function resultFor(prompt: string, rendered: string, output: string): RoundTripResult {
  const expected = prompt + output;
  let i = 0;
  while (i < rendered.length && i < expected.length && rendered[i] === expected[i]) i++;
  return {
    ok: rendered === expected,
    firstDifference: rendered === expected ? -1 : Math.max(0, i - prompt.length),
    inPrompt: rendered !== expected && i < prompt.length,
    syntax: "hermes",
    parsed: null,
    message: null,
    generationPrompt: prompt,
    rendered,
  };
}

describe("roundTripDifference is total and consistent", () => {
  const text = fc.string({ unit: "binary", maxLength: 40 });
  it("offsets agree with each other and with the texts, surrogate pairs never cut", () => {
    fc.assert(
      fc.property(text, text, text, fc.nat({ max: 50 }), (prompt, rendered, output, context) => {
        const result = resultFor(prompt, prompt + rendered, output);
        const difference = roundTripDifference(result, output, { context });
        if (result.ok) {
          expect(difference).toBeNull();
          return;
        }
        if (difference === null) throw new Error("a failed round trip has a difference");
        const head = output.slice(0, difference.offset);
        expect(difference.byteOffset).toBe(new TextEncoder().encode(head).length);
        expect(difference.line).toBe(head.split("\n").length);
        expect(difference.column).toBe([...head.slice(head.lastIndexOf("\n") + 1)].length + 1);
        const at = result.inPrompt ? 0 : prompt.length + difference.offset;
        if (!result.inPrompt) expect((prompt + output).slice(0, at).endsWith(difference.before)).toBe(true);
        for (const part of [difference.before, difference.output, difference.rendered]) {
          expect([...part].length).toBeLessThanOrEqual(context);
          expect(/^[\udc00-\udfff]/.test(part) && part !== "").toBe(false);
        }
        if (difference.output !== "" && difference.rendered !== "" && !result.inPrompt)
          // The first code points differ (the offset is moved back to a pair's start when only its halves do).
          expect(difference.output.codePointAt(0)).not.toBe(difference.rendered.codePointAt(0));
      }),
      { numRuns: 300 },
    );
  });
});
