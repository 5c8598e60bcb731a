import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createWorkMeter, type ToolCallSyntax } from "@toolcall/core/kit";
import { renderChatTemplate } from "@toolcall/jinja";
import { foldEvents, syntaxById } from "@toolcall/model-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeGemma4, gemma4, parseGemmaToolCalls } from "../src/index.js";

// The real Gemma 4 chat templates, read from the shared corpus (never copied here).
const TEMPLATES = join(import.meta.dirname, "../../../../shared/templates");
const templates = readdirSync(TEMPLATES).filter((name) => name.startsWith("google-gemma-4"));

const key = fc.stringMatching(/^[a-z_][a-z0-9_]{0,10}$/);
const value = fc.oneof(
  fc.string().filter((s) => !s.includes("<|")),
  fc.boolean(),
  fc.integer(),
  fc.array(fc.integer(), { maxLength: 3 }),
);
const call = fc.record({
  name: fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/),
  args: fc.dictionary(key, value, { maxKeys: 3 }),
});

/** What a stream's events add up to (the interface's promise: the same as `parse`). */
function fold(syntax: ToolCallSyntax, chunks: string[]) {
  const stream = syntax.createStream({ createId: ({ index }) => `call_${index}` });
  return foldEvents([...chunks.flatMap((c) => stream.push(c)), ...stream.end()]);
}

describe("gemma4: the model-formats family, re-exported", () => {
  it("encodes calls as every Gemma 4 template renders them", () => {
    for (const file of templates) {
      const template = readFileSync(join(TEMPLATES, file), "utf8");
      fc.assert(
        fc.property(fc.array(call, { minLength: 1, maxLength: 3 }), (calls) => {
          const toolCalls = calls.map((c, i) => ({
            id: `call_${i}`,
            type: "function",
            function: { name: c.name, arguments: JSON.stringify(c.args) },
          }));
          const prompt = renderChatTemplate({
            template,
            messages: [
              { role: "user", content: "Go." },
              { role: "assistant", content: null, tool_calls: toolCalls },
            ],
            variables: { bos_token: "<bos>" },
          });
          expect(prompt).toContain(encodeGemma4(toolCalls));
        }),
        { numRuns: 30 },
      );
    }
  });

  it("parseGemmaToolCalls is gemma4.parse, ids from createId; any split of the text gives the same", () => {
    const text = `Checking.<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3}<tool_call|> and <|tool_call>call:oops{a:<|"|>x<tool_call|>`;
    const whole = gemma4.parse(text, { createId: ({ index }) => `call_${index}` });
    let n = 0;
    const plain = parseGemmaToolCalls(text, { createId: () => `call_${n++}` });
    expect(plain).toEqual(whole);
    expect(whole.toolCalls.map((c) => c.function)).toEqual([
      { name: "get_weather", arguments: '{"city": "Paris", "days": 3}' },
    ]);
    expect(whole.issues.map((i) => [i.code, i.severity])).toEqual([["call_invalid", "error"]]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 8 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks = [0, ...points].map((p, i) => text.slice(p, points[i] ?? text.length));
        expect(fold(gemma4, chunks)).toEqual(whole);
      }),
    );
  });

  it("is the registry's gemma4", () => {
    expect(syntaxById("gemma4")).toBe(gemma4);
  });
});

describe("gemma4 under core's work budget", () => {
  it("charges the caller's meter, whole and streamed, and stops at its limit", () => {
    const text = `Hi ${'<|tool_call>call:f{a:<|"|>x<|"|>}<tool_call|>'.repeat(400)}`;
    const counted = createWorkMeter();
    expect(gemma4.parse(text, { meter: counted }).toolCalls).toHaveLength(400);
    expect(counted.steps).toBeGreaterThan(text.length / 2);
    const streamed = createWorkMeter();
    const stream = gemma4.createStream({ meter: streamed });
    stream.push(text);
    stream.end();
    expect(streamed.steps).toBeGreaterThan(text.length / 2);
    const tight = gemma4.parse(text, { meter: createWorkMeter({ limit: 1000 }) });
    expect(tight.issues.map((i) => i.code)).toContain("budget_exhausted");
    expect(tight.toolCalls.length).toBeLessThan(400);
  });
});
