import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { decodeArguments, encodeArguments } from "@toolcall/core";
import { createWorkMeter, type SyntaxStreamEvent } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeQwen3Coder, qwen3Coder, renderQwenChatTemplate } from "../src/index.js";

// Templates are read from the shared material beside the repository, never copied into it.
const templates = resolve(import.meta.dirname, "../../../../shared/templates");
const read = (name: string) => readFileSync(join(templates, name), "utf8");

const tools = [
  {
    type: "function",
    function: {
      name: "edit_file",
      parameters: {
        type: "object",
        properties: {
          path: { type: "string" },
          line: { type: "integer" },
          force: { type: "boolean" },
          meta: { type: "object" },
          items: { type: "array" },
        },
      },
    },
  },
];
const text = fc.string({ maxLength: 12 }).filter((s) => !s.includes("<") && s.trim() === s && s !== "");
const args = fc.record(
  {
    path: text,
    line: fc.integer(),
    force: fc.boolean(),
    meta: fc.dictionary(fc.stringMatching(/^[a-z]{1,5}$/), fc.oneof(fc.integer(), text), { maxKeys: 2 }),
    items: fc.array(fc.integer(), { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

describe("qwen3Coder: the engine's family, re-exported", () => {
  for (const file of ["Qwen-Qwen3-Coder-30B-A3B-Instruct.jinja", "Qwen-Qwen3.5-4B.jinja"]) {
    it(`encodes calls as ${file} renders them, and parses them back`, () => {
      const template = read(file);
      fc.assert(
        fc.property(fc.array(args, { minLength: 1, maxLength: 3 }), (calls) => {
          const toolCalls = calls.map((a, i) => ({
            id: `call_${i}`,
            type: "function",
            function: { name: "edit_file", arguments: JSON.stringify(a) },
          }));
          const prompt = renderQwenChatTemplate({
            template,
            messages: [
              { role: "user", content: "Edit." },
              { role: "assistant", content: null, tool_calls: toolCalls },
            ],
            tools,
            addGenerationPrompt: false,
          });
          const written = encodeQwen3Coder(toolCalls);
          expect(prompt).toContain(written);
          const parsed = qwen3Coder.parse(written, { tools });
          const canonical = (s: string) =>
            encodeArguments(decodeArguments(s, { lossless: true }).arguments, { style: "python" });
          expect(parsed.toolCalls.map((c) => canonical(c.function.arguments))).toEqual(
            toolCalls.map((c) => canonical(c.function.arguments)),
          );
        }),
        { numRuns: 40 },
      );
    });
  }

  it("reads a call typed by the schema (the newline before a call is syntax), and a stream's events add up to it", () => {
    const input = `Let me edit.\n<tool_call>\n<function=edit_file>\n<parameter=line>\n3\n</parameter>\n</function>\n</tool_call>`;
    const createId = ({ index }: { index: number }) => `call_${index}`;
    const whole = qwen3Coder.parse(input, { tools, createId });
    expect(whole).toEqual({
      toolCalls: [
        { id: "call_0", type: "function", function: { name: "edit_file", arguments: '{"line": 3}' } },
      ],
      content: "Let me edit.",
      reasoning: null,
      issues: [],
    });
    for (let cut = 1; cut < input.length; cut += 7) {
      const stream = qwen3Coder.createStream({ tools, createId });
      const events: SyntaxStreamEvent[] = [
        ...stream.push(input.slice(0, cut)),
        ...stream.push(input.slice(cut)),
        ...stream.end(),
      ];
      const content = events.map((e) => (e.type === "content" ? e.text : "")).join("");
      const ended = events.flatMap((e) => (e.type === "tool_call_end" ? [e.toolCall] : []));
      expect({ content, ended }).toEqual({ content: "Let me edit.", ended: whole.toolCalls });
      expect(events.filter((e) => e.type === "tool_call_delta").length).toBeGreaterThan(0);
    }
  });
});

describe("qwen3Coder under core's work budget", () => {
  it("charges the caller's meter, whole and streamed, and stops at its limit", () => {
    const text = `Hi ${"<tool_call>\n<function=f>\n<parameter=a>\nx\n</parameter>\n</function>\n</tool_call>\n".repeat(300)}`;
    const counted = createWorkMeter();
    expect(qwen3Coder.parse(text, { meter: counted }).toolCalls).toHaveLength(300);
    expect(counted.steps).toBeGreaterThan(text.length / 2);
    const streamed = createWorkMeter();
    const stream = qwen3Coder.createStream({ meter: streamed });
    stream.push(text);
    stream.end();
    expect(streamed.steps).toBeGreaterThan(text.length / 2);
    const tight = qwen3Coder.parse(text, { meter: createWorkMeter({ limit: 1000 }) });
    expect(tight.issues.map((i) => i.code)).toContain("budget_exhausted");
    expect(tight.toolCalls.length).toBeLessThan(300);
  });
});
