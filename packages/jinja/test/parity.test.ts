import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildCases,
  buildMessages,
  loadConversations,
  loadTemplates,
  type Outcome,
  type RenderCase,
  renderOurs,
  renderPython,
} from "../scripts/parity-cases.mjs";
import * as jinja from "../src/index.js";

// The differential test: every template × every public conversation, rendered by Python + Jinja2 exactly as
// transformers renders (../shared/parity/hf_render.py, one process per batch) and by us. Errors count: both must
// raise, with the same exception name and message.

const templates = loadTemplates();
const conversations = loadConversations();
const formFor = (t: { source: string }) => jinja.probeChatTemplate(t.source).argumentsForm;

function expectSame(c: RenderCase, expected: Outcome): void {
  const actual = renderOurs(jinja, c);
  expect(actual, `${c.template} ${c.id}`).toEqual(expected);
}

describe("public conversations, every template", () => {
  const cases = buildCases({ templates, conversations, formFor });
  const expected = renderPython(cases);

  it("covers every template and conversation", () => {
    expect(templates.length).toBe(66);
    expect(cases.length).toBe(templates.length * conversations.conversations.length * 2);
  });

  for (const template of templates) {
    it(`${template.name}: byte-identical to transformers`, () => {
      cases.forEach((c, i) => {
        if (c.template === template.name) expectSame(c, expected[i] as Outcome);
      });
    });
  }
});

// Generated conversations: the values that break renderers (unicode, quotes, floats, booleans, null, nested
// values, big integers, several calls), written as wire JSON text the way models and servers write it.
const CHARS = [
  ..."abcXYZ 019_-",
  '"',
  "'",
  "\\",
  "\n",
  "\t",
  "<",
  ">",
  "&",
  "{",
  "}",
  "[",
  "]",
  ":",
  ",",
  "é",
  "ü",
  "中",
  "文",
  "😀",
  "\u00a0",
  "\u2028",
  "\u0000",
  "\u007f",
  "%",
  "#",
];
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 12 }).map((a) => a.join(""));
// Keys that are not integer-like (a JavaScript object orders those first; see the README's limits).
const key = fc
  .array(fc.constantFrom(..."abcdefxyz_", "é", "中", " ", "-"), { minLength: 1, maxLength: 8 })
  .map((a) => a.join(""))
  .filter((k) => !/^\d+$/.test(k));
const floatText = fc.oneof(
  fc.constantFrom(
    "1.0",
    "-0.0",
    "0.5",
    "20.0",
    "1e20",
    "1E-7",
    "2.5e+3",
    "3.14159",
    "1e400",
    "123456789.125",
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
);
const intText = fc.oneof(
  fc.integer().map(String),
  fc.constantFrom("0", "-1", "9007199254740993", "123456789012345678901234567890", "-98765432109876543210"),
);
const { tree } = fc.letrec<{ tree: string }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    text.map((s) => JSON.stringify(s)),
    intText,
    floatText,
    fc.constantFrom("true", "false", "null"),
    fc.array(tie("tree"), { maxLength: 3 }).map((items) => `[${items.join(", ")}]`),
    fc
      .uniqueArray(fc.tuple(key, tie("tree")), { maxLength: 3, selector: ([k]) => k })
      .map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(", ")}}`),
  ),
}));
const argsJson = fc
  .uniqueArray(fc.tuple(key, tree), { minLength: 0, maxLength: 4, selector: ([k]) => k })
  .map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`);
const conversation = fc.record({
  calls: fc.array(argsJson, { minLength: 1, maxLength: 3 }),
  content: fc.constantFrom(null, "", "Let me check."),
  label: text,
});

const FAMILIES = [
  "Qwen-Qwen2.5-7B-Instruct.jinja",
  "Qwen-Qwen3-8B.jinja",
  "Qwen-Qwen3-Coder-30B-A3B-Instruct.jinja",
  "Qwen-Qwen3-Coder-30B-A3B-Instruct.rev-2025-08-07.jinja",
  "Qwen-Qwen3.5-4B.jinja",
  "google-gemma-4-31B-it.jinja",
  "meta-llama-Llama-3.1-8B-Instruct.jinja",
  "mistralai-Mistral-Small-3.2-24B-Instruct-2506.jinja",
  "mistralai-Mistral-Nemo-Instruct-2407.jinja",
  "zai-org-GLM-4.5.jinja",
  "zai-org-GLM-5.1.jinja",
  "deepseek-ai-DeepSeek-V3.1.jinja",
  "deepseek-ai-DeepSeek-R1.jinja",
];

describe("generated conversations (fast-check), Qwen, Gemma 4, Llama, Mistral, GLM, DeepSeek", () => {
  const samples = fc.sample(conversation, { numRuns: 40, seed: 20260102 });
  const cases: RenderCase[] = [];
  for (const name of FAMILIES) {
    const template = templates.find((t) => t.name === name);
    if (template === undefined) throw new Error(`missing template ${name}`);
    const form = formFor(template);
    samples.forEach((sample, index) => {
      cases.push({
        template: name,
        source: template.source,
        id: `generated-${index}`,
        form,
        tools: conversations.tools,
        messages: buildMessages({
          tools: conversations.tools,
          argsJson: sample.calls,
          index,
          content: sample.content,
          label: sample.label,
        }),
      });
    });
  }
  const expected = renderPython(cases);

  it("renders most generated cases (the generator is not vacuous)", () => {
    const rendered = expected.filter((e) => "ok" in e).length;
    expect(rendered).toBeGreaterThan(cases.length / 2);
  });

  for (const name of FAMILIES) {
    it(`${name}: byte-identical on generated conversations`, () => {
      cases.forEach((c, i) => {
        if (c.template === name) expectSame(c, expected[i] as Outcome);
      });
    });
  }
});
