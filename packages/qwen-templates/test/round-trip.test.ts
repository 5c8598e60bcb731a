import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { decodeArguments, encodeArguments } from "@toolcall/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  probeQwenChatTemplate,
  QWEN_SPECIAL_TOKENS,
  qwen3Coder,
  renderQwenChatTemplate,
} from "../src/index.js";

// Templates are read from the shared material beside the repository, never copied into it.
const templates = resolve(import.meta.dirname, "../../../../shared/templates");
const read = (name: string) => readFileSync(join(templates, name), "utf8");
const coder = read("Qwen-Qwen3-Coder-30B-A3B-Instruct.jinja");

const tools = [
  {
    type: "function",
    function: {
      name: "edit_file",
      description: "Edit a file.",
      parameters: {
        type: "object",
        properties: {
          path: { type: "string" },
          line: { type: "integer" },
          ratio: { type: "number" },
          force: { type: "boolean" },
          meta: { type: "object" },
          items: { type: "array" },
          limit: { anyOf: [{ type: "integer" }, { type: "null" }] },
        },
      },
    },
  },
];

const CHARS = [..."abc XYZ019_-/.", '"', "'", "\\", "\n", "\t", "<", ">", "&", "{", "}", "é", "中", "😀"];
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 16 }).map((a) => a.join(""));
const json = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v));
const floatText = fc.oneof(
  fc.constantFrom("20.0", "0.5", "1e20", "1e-7", "-0.0", "3.25"),
  fc
    .double({ noNaN: true, noDefaultInfinity: true })
    .map((d) => (Number.isInteger(d) && Math.abs(d) < 1e16 ? `${d}.0` : JSON.stringify(d))),
);
const argsJson = fc
  .record(
    {
      path: text.map((s) => JSON.stringify(s)),
      line: fc.oneof(fc.integer().map(String), fc.constantFrom("123456789012345678901234567890")),
      ratio: floatText,
      force: fc.constantFrom("true", "false"),
      meta: fc
        .dictionary(
          fc.string({ minLength: 1, maxLength: 5 }).filter((k) => !/^\d+$/.test(k)),
          json,
          { maxKeys: 3 },
        )
        .map(
          (d) =>
            `{${Object.entries(d)
              .map(([k, v]) => `${JSON.stringify(k)}: ${v}`)
              .join(", ")}}`,
        ),
      items: fc.array(json, { maxLength: 3 }).map((a) => `[${a.join(", ")}]`),
      limit: fc.oneof(fc.constant("null"), fc.integer().map(String)),
    },
    { requiredKeys: [] },
  )
  .map(
    (r) =>
      `{${Object.entries(r)
        .map(([k, v]) => `"${k}": ${v}`)
        .join(", ")}}`,
  );

function assistantTurn(prompt: string): string {
  const start = prompt.lastIndexOf("<|im_start|>assistant");
  const end = prompt.indexOf("<|im_end|>", start);
  return prompt.slice(start + "<|im_start|>assistant".length, end);
}

describe("round trip with the Qwen3-Coder template", () => {
  it("parsing what the template renders for a call gives the call back", () => {
    fc.assert(
      fc.property(fc.array(argsJson, { minLength: 1, maxLength: 3 }), (calls) => {
        const messages = [
          { role: "user", content: "edit" },
          {
            role: "assistant",
            content: null,
            tool_calls: calls.map((args, i) => ({
              id: `call${i}`,
              type: "function",
              function: { name: "edit_file", arguments: args },
            })),
          },
        ];
        const prompt = renderQwenChatTemplate({
          template: coder,
          messages,
          tools,
          addGenerationPrompt: false,
        });
        const parsed = qwen3Coder.parse(assistantTurn(prompt), { tools });
        expect(parsed.issues).toEqual([]);
        expect(parsed.content).toBeNull();
        expect(parsed.toolCalls.map((c) => c.function.name)).toEqual(calls.map(() => "edit_file"));
        // Byte for byte: the arguments Python's json.dumps would write for the original call.
        expect(parsed.toolCalls.map((c) => c.function.arguments)).toEqual(
          calls.map((args) =>
            encodeArguments(decodeArguments(args, { lossless: true }).arguments, { style: "python" }),
          ),
        );
      }),
      { numRuns: 150 },
    );
  });
});

describe("the Qwen entry point", () => {
  it("renders with Qwen's special tokens and the generation prompt", () => {
    const prompt = renderQwenChatTemplate({
      template: "{{ eos_token }}|{{ add_generation_prompt }}|{{ enable_thinking }}",
      messages: [],
      enableThinking: false,
    });
    expect(prompt).toBe(`${QWEN_SPECIAL_TOKENS.eos_token}|True|False`);
  });

  it("probes the Qwen family", () => {
    expect(probeQwenChatTemplate(coder)).toMatchObject({
      argumentsForm: "mapping",
      toolCallFormat: "xml",
      thinkingSwitch: false,
    });
    expect(probeQwenChatTemplate(read("Qwen-Qwen3.5-4B.jinja"))).toMatchObject({
      toolCallFormat: "xml",
      thinkingSwitch: true,
    });
    for (const file of ["families/Qwen-Qwen3.6-35B-A3B.jinja", "families/Qwen-Qwen3.8-27B.jinja"])
      expect(probeQwenChatTemplate(read(file)), file).toMatchObject({
        toolCallFormat: "xml",
        thinkingSwitch: true,
      });
    expect(probeQwenChatTemplate(read("Qwen-Qwen3-8B.jinja"))).toMatchObject({
      toolCallFormat: "json",
      thinkingSwitch: true,
    });
    expect(probeQwenChatTemplate(read("Qwen-Qwen2.5-7B-Instruct.jinja"))).toMatchObject({
      toolCallFormat: "json",
      thinkingSwitch: false,
    });
  });
});
