import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { safeRenderChatTemplate } from "@toolcall/jinja";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeQwen3Coder, encodeQwen36, qwen3Coder, qwen36 } from "../src/qwen3-coder.js";

// The real templates, read where they are (never copied): which value writer each Qwen template version uses.
const shared = resolve(import.meta.dirname, "../../../../shared");
const templates = join(shared, "templates");
const TOJSON = [
  "families/Qwen-Qwen3.6-35B-A3B.jinja",
  "families/Qwen-Qwen3.8-27B.jinja",
  "Qwen-Qwen3-Coder-Next.jinja",
];
const STR = ["Qwen-Qwen3-Coder-30B-A3B-Instruct.jinja", "Qwen-Qwen3.5-4B.jinja"];

const key = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/);
const scalar = fc.oneof(
  fc.string().filter((s) => !s.includes("<") && !s.includes("\n")),
  fc.boolean(),
  fc.constant(null),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).filter((n) => !Object.is(n, -0)),
);
const value = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(key, scalar, { maxKeys: 2 }),
);
const args = fc.dictionary(key, value, { minKeys: 1, maxKeys: 4 });

function rendered(template: string, mapping: Record<string, unknown>): string {
  const result = safeRenderChatTemplate({
    template,
    messages: [
      { role: "user", content: "q" },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "call12345", type: "function", function: { name: "f", arguments: JSON.stringify(mapping) } },
        ],
      },
    ],
    variables: { bos_token: "<s>", eos_token: "</s>" },
  });
  if (!result.ok) throw new Error(String(result.error));
  return result.text;
}

const call = (mapping: Record<string, unknown>) => [
  { id: "call12345", type: "function", function: { name: "f", arguments: JSON.stringify(mapping) } },
];

describe("each Qwen template version's value writer is its encoder's", () => {
  for (const [files, encode, other] of [
    [TOJSON, encodeQwen36, encodeQwen3Coder],
    [STR, encodeQwen3Coder, encodeQwen36],
  ] as const) {
    for (const file of files) {
      const path = join(templates, file);
      it.skipIf(!existsSync(path))(file, () => {
        const template = readFileSync(path, "utf8");
        fc.assert(
          fc.property(args, (mapping) => {
            expect(rendered(template, mapping)).toContain(encode(call(mapping)).trimStart());
          }),
          { numRuns: 60 },
        );
        // A boolean and a null tell the two writers apart.
        const telling = { on: false, none: null };
        expect(rendered(template, telling)).not.toContain(other(call(telling)).trimStart());
      });
    }
  }

  it("the reference renderer (Python + Jinja2, as transformers renders) writes the same", () => {
    const mapping = { b: false, n: null, f: 1.5, o: { k: true }, l: [1, null], s: "é" };
    const cases = [...TOJSON, ...STR].map((file) => ({
      template: readFileSync(join(templates, file), "utf8"),
      messages: [
        { role: "user", content: "q" },
        {
          role: "assistant",
          content: "",
          tool_calls: [{ id: "call12345", type: "function", function: { name: "f", arguments: mapping } }],
        },
      ],
      tools: [],
      add_generation_prompt: false,
      kwargs: { bos_token: "<s>", eos_token: "</s>" },
    }));
    const run = spawnSync("python3", [join(shared, "parity/hf_render.py")], {
      input: JSON.stringify(cases),
      encoding: "utf8",
    });
    const outputs = JSON.parse(run.stdout) as Array<{ ok?: string }>;
    outputs.forEach((output, i) => {
      const encode = i < TOJSON.length ? encodeQwen36 : encodeQwen3Coder;
      expect(output.ok).toContain(encode(call(mapping)).trimStart());
    });
  });

  it("both read what either writes: one parser", () => {
    const text = encodeQwen36(call({ on: false, n: null }));
    const tools = [
      {
        type: "function",
        function: {
          name: "f",
          parameters: { properties: { on: { type: "boolean" }, n: { type: ["integer", "null"] } } },
        },
      },
    ];
    const createId = () => "c";
    expect(qwen36.parse(text, { tools, createId })).toEqual(qwen3Coder.parse(text, { tools, createId }));
    expect(qwen36.parse(text, { tools, createId: () => "c" }).toolCalls[0]?.function.arguments).toBe(
      '{"on": false, "n": null}',
    );
  });
});
