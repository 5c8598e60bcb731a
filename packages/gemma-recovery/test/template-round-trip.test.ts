import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { renderChatTemplate } from "@toolcall/jinja";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeGemmaArguments, parseGemmaToolCalls } from "../src/index.js";

// The real Gemma 4 chat templates, read from the shared corpus (never copied here).
const TEMPLATES = join(import.meta.dirname, "../../../../shared/templates");
const gemma4 = readdirSync(TEMPLATES).filter((name) => name.startsWith("google-gemma-4"));

const key = fc.stringMatching(/^[a-z_][a-z0-9_]{0,10}$/);
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string().filter((s) => !s.includes('<|"|>')),
    fc.boolean(),
    fc.constant(null),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(key, tie("value"), { maxKeys: 3 }),
  ),
})).value;

function render(template: string, name: string, args: Record<string, unknown>): string {
  return renderChatTemplate({
    template,
    messages: [
      { role: "user", content: "Go." },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name, arguments: JSON.stringify(args) } }],
      },
    ],
    variables: { bos_token: "<bos>" },
  });
}

describe("a call rendered by each Gemma 4 template parses back to the same call", () => {
  it("finds the four Gemma 4 templates", () => {
    expect(gemma4).toHaveLength(4);
  });

  for (const file of gemma4) {
    it(file, () => {
      const template = readFileSync(join(TEMPLATES, file), "utf8");
      fc.assert(
        fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 }), (args) => {
          const prompt = render(template, "get_weather", args);
          // The template's own rendering of the arguments is what the encoder writes.
          expect(prompt).toContain(`<|tool_call>call:get_weather${encodeGemmaArguments(args)}<tool_call|>`);
          const start = prompt.indexOf("<|tool_call>");
          const end = prompt.indexOf("<tool_call|>", start) + "<tool_call|>".length;
          const { toolCalls } = parseGemmaToolCalls(prompt.slice(start, end));
          expect(toolCalls.map((c) => c.function.name)).toEqual(["get_weather"]);
          expect(JSON.parse(toolCalls[0]?.function.arguments ?? "")).toEqual(
            JSON.parse(JSON.stringify(args)),
          );
        }),
        { numRuns: 60 },
      );
    });
  }
});
