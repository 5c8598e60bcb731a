import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { hermes, roundTrip } from "../src/index.js";
import { turnEndings, withoutStopText } from "../src/turn-endings.js";

// A Hermes-style template that closes a turn with calls by the token the model stops on there, as Gemma 4's
// template does (`<tool_call|><|tool_response>`), and any other turn with its end of turn.
const TEMPLATE =
  '{% for m in messages %}<|im_start|>{{ m.role }}\n{% if m.content %}{{ m.content }}{% endif %}{% if m.tool_calls %}{% for c in m.tool_calls %}<tool_call>\n{"name": "{{ c.function.name }}", "arguments": {{ c.function.arguments | tojson }}}\n</tool_call>{% endfor %}<|tool_response>{% else %}<|im_end|>\n{% endif %}{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}';
const messages = [{ role: "user", content: "Weather in Paris?" }];
// Real templates are read from the shared material beside the repository, never copied into it.
const templates = resolve(import.meta.dirname, "../../../../shared/templates");
const call = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';

describe("turn endings: what a server strips at the end of a turn", () => {
  it("a calling turn closed by its own stop token round-trips without it (and with it cut short, not at all)", () => {
    const result = roundTrip({ template: TEMPLATE, output: call, messages, syntax: hermes });
    expect(result).toMatchObject({ ok: true, firstDifference: -1 });
    expect(result.rendered.endsWith("</tool_call><|tool_response>")).toBe(true);
    // The syntax's own closing tag is no stop token: an output without it differs where it should be.
    const cut = call.slice(0, -"</tool_call>".length);
    expect(roundTrip({ template: TEMPLATE, output: cut, messages, syntax: hermes }).ok).toBe(false);
    // A plain answer ends with the end of turn, as before.
    expect(roundTrip({ template: TEMPLATE, output: "Sunny.", messages, syntax: hermes }).ok).toBe(true);
  });

  it("lists the end of turn, then the text after the encoded calls; nothing when the calls are not found", () => {
    const calls = hermes.parse(call).toolCalls;
    const rendered = `<|im_start|>assistant\n${call}<|tool_response>`;
    expect(turnEndings({ rendered, endOfTurn: "<|im_end|>\n", syntax: hermes, calls })).toEqual([
      "<|tool_response>",
    ]);
    expect(
      turnEndings({ rendered: `${rendered}<|im_end|>\n`, endOfTurn: "<|im_end|>\n", syntax: hermes, calls }),
    ).toEqual(["<|im_end|>\n", "<|tool_response><|im_end|>\n"]);
    expect(
      turnEndings({ rendered: "<|im_start|>assistant\nother", endOfTurn: "", syntax: hermes, calls }),
    ).toEqual([]);
    const throwing = {
      ...hermes,
      encode: () => {
        throw new Error("no");
      },
    };
    expect(turnEndings({ rendered, endOfTurn: "", syntax: throwing, calls })).toEqual([]);
  });

  it("an output that keeps the stop token it ended on round-trips too (parsed without it)", () => {
    const template = readFileSync(join(templates, "Qwen-Qwen3-8B.jinja"), "utf8");
    const tools = [
      {
        type: "function",
        function: {
          name: "get_weather",
          parameters: { type: "object", properties: { city: { type: "string" } } },
        },
      },
    ];
    const output = `<think>\nLook it up.\n</think>\n\n${call}`;
    for (const raw of [output, `${output}<|im_end|>`]) {
      const result = roundTrip({ template, output: raw, messages, tools });
      expect(result).toMatchObject({ ok: true, syntax: "hermes" });
      expect(result.parsed?.content).toBeNull();
      expect(result.parsed?.toolCalls.map((c) => c.function.name)).toEqual(["get_weather"]);
    }
    // Only a whole, trailing stop token is cut; the newline after it is the template's, not the model's.
    const kept = roundTrip({ template, output: `${output}<|im_end|>\n`, messages, tools });
    expect(kept.ok).toBe(false);
    expect(withoutStopText("a<|im_end|>b", "<|im_end|>\n")).toBe("a<|im_end|>b");
    expect(withoutStopText("a<|im_end", "<|im_end|>\n")).toBe("a<|im_end");
    expect(withoutStopText("a", "")).toBe("a");
  });
});
