import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { QWEN_SPECIAL_TOKENS, renderQwenChatTemplate } from "../src/index.js";

// Arguments a caller passes as a mapping are what transformers sees: they render as given, never re-encoded
// into the form the probe picked for wire text. Checked against Python + Jinja2 (../shared/parity/hf_render.py).
const shared = resolve(import.meta.dirname, "../../../../shared");
const read = (name: string) => readFileSync(join(shared, "templates", name), "utf8");

function python(template: string, messages: unknown[], tools: unknown[]): string {
  const input = JSON.stringify({
    template,
    messages,
    tools,
    add_generation_prompt: true,
    kwargs: QWEN_SPECIAL_TOKENS,
  });
  const result = spawnSync("python3", [join(shared, "parity/hf_render.py")], { input, encoding: "utf8" });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout;
}

const tools = [
  {
    type: "function",
    function: {
      name: "edit_file",
      parameters: { type: "object", properties: { path: { type: "string" }, meta: { type: "object" } } },
    },
  },
];

const conversation = (args: unknown) => [
  { role: "user", content: "Fix it." },
  {
    role: "assistant",
    content: "",
    tool_calls: [{ id: "call1", type: "function", function: { name: "edit_file", arguments: args } }],
  },
  { role: "tool", tool_call_id: "call1", content: "done" },
];

describe("renderQwenChatTemplate with arguments given as a mapping", () => {
  const mapping = { path: "a.py", meta: { lines: [1, 2], note: "é" }, flag: false, none: null };
  for (const name of [
    "Qwen-Qwen3-Coder-30B-A3B-Instruct.jinja",
    "Qwen-Qwen3-8B.jinja",
    "Qwen-Qwen2.5-7B-Instruct.jinja",
  ]) {
    it(`${name}: renders the mapping as transformers does`, () => {
      const template = read(name);
      const messages = conversation(mapping);
      expect(renderQwenChatTemplate({ template, messages, tools })).toBe(python(template, messages, tools));
    });
  }

  it("renders wire text and the same mapping alike where the template serialises the mapping", () => {
    const template = read("Qwen-Qwen3-8B.jinja");
    const fromMapping = renderQwenChatTemplate({ template, messages: conversation(mapping), tools });
    const fromWire = renderQwenChatTemplate({
      template,
      messages: conversation(JSON.stringify(mapping)),
      tools,
    });
    expect(fromWire).toBe(fromMapping);
  });
});
