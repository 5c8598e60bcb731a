import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { probeChatTemplate, safeRenderChatTemplate } from "@toolcall/jinja";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  apertus,
  detectToolCallSyntax,
  functionaryV31,
  functionaryV32,
  granite,
  hermes,
  hunyuan,
  minimaxM2,
  roundTrip,
  seedOss,
  xlam,
} from "../src/index.js";
import {
  assistantMessage,
  type Case,
  expectRoundTrips,
  MESSAGES,
  messagesFor,
  modelOutput,
  RENDER_NOW,
  type Renderer,
  type RenderRequest,
  renderRequests,
  TOOLS,
} from "./round-trip-property.js";

// Real chat templates of families the corpus in ../shared/templates lacks. Like every real template, they are read
// from outside the repository: from ../shared/templates when it holds them, or from the directory $TOOLCALL_TEMPLATES
// names; a test whose template is in neither is skipped, saying where the template is published.
const templateDirs = [
  ...(process.env.TOOLCALL_TEMPLATES ? [resolve(process.env.TOOLCALL_TEMPLATES)] : []),
  resolve(import.meta.dirname, "../../../../shared/templates"),
];
const LLAMA_CPP = "ggml-org/llama.cpp models/templates";
/** Where each template is published (the model's own repository and licence in the package README). */
const PUBLISHED: Record<string, string> = {
  "ByteDance-Seed-OSS": LLAMA_CPP,
  "meetkai-functionary-medium-v3.1": LLAMA_CPP,
  "meetkai-functionary-medium-v3.2": LLAMA_CPP,
  "Apertus-8B-Instruct": LLAMA_CPP,
  "ibm-granite-granite-3.3-2B-Instruct": LLAMA_CPP,
  "ibm-granite-granite-4.0": LLAMA_CPP,
  "vllm-tool_chat_template_hunyuan_a13b": "vllm-project/vllm examples",
  "vllm-tool_chat_template_xlam_qwen": "vllm-project/vllm examples",
};
/** The template's text, or the test skipped with where to get it. */
function realTemplate(name: string, context: { skip: (note: string) => never }): string {
  for (const dir of templateDirs) {
    const file = join(dir, `${name}.jinja`);
    if (existsSync(file)) return readFileSync(file, "utf8");
  }
  return context.skip(
    `${name}.jinja is not in ../shared/templates nor $TOOLCALL_TEMPLATES (published: ${PUBLISHED[name]})`,
  );
}
const referenceRenderer = resolve(import.meta.dirname, "../../../../shared/parity/hf_render.py");

/**
 * A look-alike of MiniMax-M2's assistant turn, written for these tests from the published template's rendering (not
 * a copy; its licence keeps the template out, see the README): a non-string value written with `| tojson`, which must
 * type back to the same arguments by the tool's schema.
 */
const MINIMAX_LOOK_ALIKE = [
  "{%- for m in messages %}",
  "{%- if m.role == 'assistant' %}{{ ']~b]ai\\n' }}",
  "{%- if m.reasoning_content %}{{ '<think>\\n' + m.reasoning_content + '\\n</think>\\n\\n' }}{%- endif %}",
  "{%- if m.content %}{{ m.content }}{%- endif %}",
  "{%- if m.tool_calls %}{{ '\\n<minimax:tool_call>\\n' }}",
  "{%- for c in m.tool_calls %}{{ '<invoke name=\"' + c.function.name + '\">\\n' }}",
  "{%- for k, v in c.function.arguments | items %}",
  "{{ '<parameter name=\"' + k + '\">' + (v if v is string else v | tojson) + '</parameter>\\n' }}{%- endfor %}",
  "{{ '</invoke>\\n' }}{%- endfor %}{{ '</minimax:tool_call>' }}{%- endif %}{{ '[e~[\\n' }}",
  "{%- else %}{{ ']~b]' + m.role + '\\n' + m.content + '[e~[\\n' }}{%- endif %}",
  "{%- endfor %}",
  "{%- if add_generation_prompt %}{{ ']~b]ai\\n<think>\\n' }}{%- endif %}",
].join("");

/** The templates that write a syntax of this package, what each keeps, and what it drops (the exceptions). */
const CASES: Case[] = [
  {
    template: "ByteDance-Seed-OSS",
    syntax: seedOss,
    content: true,
    reasoning: "non-empty",
    calls: 3,
    exceptions: "drops blank reasoning",
  },
  {
    template: "meetkai-functionary-medium-v3.1",
    syntax: functionaryV31,
    content: true,
    reasoning: "none",
    calls: 3,
    exceptions: "drops reasoning",
  },
  {
    template: "meetkai-functionary-medium-v3.2",
    syntax: functionaryV32,
    content: true,
    reasoning: "none",
    calls: 3,
    exceptions: "drops reasoning",
  },
  {
    template: "Apertus-8B-Instruct",
    syntax: apertus,
    content: true,
    reasoning: "none",
    calls: 3,
    exceptions: "drops reasoning",
  },
  {
    template: "vllm-tool_chat_template_hunyuan_a13b",
    syntax: hunyuan,
    content: true,
    reasoning: "none",
    calls: 3,
    exceptions: "drops reasoning",
  },
  {
    template: "vllm-tool_chat_template_xlam_qwen",
    syntax: xlam,
    content: false,
    reasoning: "none",
    calls: 3,
    exceptions: "drops content beside calls, and reasoning",
  },
  {
    template: "ibm-granite-granite-4.0",
    syntax: hermes,
    content: true,
    reasoning: "none",
    calls: 3,
    exceptions: "drops reasoning",
  },
  {
    template: "look-alike of MiniMax-M2",
    source: MINIMAX_LOOK_ALIKE,
    syntax: minimaxM2,
    content: true,
    reasoning: "non-empty",
    calls: 3,
  },
];

describe("round trip over real templates of more families: parse the model's output, render it back, byte for byte", () => {
  for (const testCase of CASES) {
    it(`${testCase.template} (${testCase.syntax.id})${testCase.exceptions ? `: ${testCase.exceptions}` : ""}`, (context) => {
      expectRoundTrips(testCase, testCase.source ?? realTemplate(testCase.template, context));
    });
  }
});

describe("those templates are detected by their rendering (or signature)", () => {
  const expected: [string, string, string][] = [
    ["ByteDance-Seed-OSS", seedOss.id, "render"],
    ["meetkai-functionary-medium-v3.1", functionaryV31.id, "render"],
    ["meetkai-functionary-medium-v3.2", functionaryV32.id, "render"],
    ["Apertus-8B-Instruct", apertus.id, "render"],
    ["vllm-tool_chat_template_hunyuan_a13b", hunyuan.id, "render"],
    ["vllm-tool_chat_template_xlam_qwen", xlam.id, "render"],
    // Granite 3.3 renders no assistant calls: only its signature tells; Granite 4.0 writes Hermes' <tool_call>.
    ["ibm-granite-granite-3.3-2B-Instruct", granite.id, "signature"],
    ["ibm-granite-granite-4.0", hermes.id, "render"],
  ];
  for (const [name, id, method] of expected)
    it(`${name} → ${id} (${method})`, (context) => {
      expect(detectToolCallSyntax(realTemplate(name, context))).toMatchObject({ id, method });
    });

  it("Granite 3.3's template drops an assistant message's calls: no round trip is possible (its exception)", (context) => {
    const template = realTemplate("ibm-granite-granite-3.3-2B-Instruct", context);
    const call = { id: "c1", type: "function", function: { name: "list_files", arguments: "{}" } };
    const rendered = safeRenderChatTemplate({
      template,
      messages: [...MESSAGES, { role: "assistant", content: "", tool_calls: [call] }],
      tools: TOOLS,
    });
    // The turn renders empty: `<|start_of_role|>assistant<|end_of_role|><|end_of_text|>` (the call is gone).
    expect(rendered.ok && rendered.text.endsWith("assistant<|end_of_role|><|end_of_text|>\n")).toBe(true);
    expect(detectToolCallSyntax(template).parallelCalls).toBe(false);
  });
});

/** Calls the reference renderer (Python + Jinja2, as transformers renders) once for every request. */
function referenceRenders(requests: RenderRequest[]): Renderer {
  const input = JSON.stringify(
    requests.map((request) => ({
      template: request.template,
      messages: request.messages,
      tools: request.tools,
      add_generation_prompt: request.addGenerationPrompt === true,
      kwargs: request.variables,
    })),
  );
  const run = spawnSync("python3", [referenceRenderer], { input, encoding: "utf8", maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(run.stderr);
  const answers = JSON.parse(run.stdout) as ({ ok: string } | { error: string })[];
  const byRequest = new Map(requests.map((request, i) => [JSON.stringify(request), answers[i]]));
  return (request) => {
    const answer = byRequest.get(JSON.stringify(request));
    if (answer === undefined) throw new Error("a render the batch did not hold");
    return "ok" in answer ? { ok: true, text: answer.ok } : { ok: false };
  };
}

describe("the reference renderer (transformers' Jinja2) writes the same prompts and turns, which round-trip", () => {
  // Values both sides write alike (strings, integers, booleans, null, lists): floats and the exponent forms Python
  // and JavaScript spell differently are @toolcall/jinja's own parity tests' subject.
  const plainArgs = fc.record(
    {
      path: fc.string({ maxLength: 12 }).filter((s) => !/[<>]/.test(s)),
      line: fc.integer({ min: -1000, max: 100000 }),
      force: fc.boolean(),
      note: fc.option(fc.constantFrom("a", "b c", "é中😀", 'quote "x"'), { nil: null }),
      items: fc.array(fc.integer({ min: 0, max: 99 }), { maxLength: 3 }),
    },
    { requiredKeys: [] },
  );
  for (const testCase of CASES.filter((c) => c.source === undefined)) {
    it(`${testCase.template}: same prompts and turns as @toolcall/jinja, and each turn parses and renders back`, (context) => {
      const template = realTemplate(testCase.template, context);
      const mapping = probeChatTemplate(template).argumentsForm === "mapping";
      const samples = fc
        .sample(fc.tuple(assistantMessage(testCase), fc.array(plainArgs, { minLength: 3, maxLength: 3 })), {
          numRuns: 8,
          seed: 22,
        })
        .map(([{ message }, args]) => {
          const calls = (message.tool_calls as { function: { name: string } }[]).map((call, i) => ({
            ...call,
            function: {
              name: call.function.name,
              arguments: call.function.name === "list_files" ? "{}" : JSON.stringify(args[i]),
            },
          }));
          return { ...message, tool_calls: calls };
        });
      // What transformers would be handed: arguments in the form the template reads (the probe's choice).
      const handed = (message: Record<string, unknown>) => ({
        ...message,
        tool_calls: (message.tool_calls as { function: { name: string; arguments: string } }[]).map(
          (call) => ({
            ...call,
            function: {
              ...call.function,
              arguments: mapping ? JSON.parse(call.function.arguments) : call.function.arguments,
            },
          }),
        ),
      });
      const requests = samples.flatMap((message) => renderRequests(testCase, handed(message), template));
      const reference = referenceRenders(requests);
      // Whole prompts first (system prompt with the tools, the conversation, the turn): byte for byte.
      for (const request of requests) {
        const expected = reference(request);
        const actual = safeRenderChatTemplate({ ...request, now: RENDER_NOW });
        expect(actual.ok, JSON.stringify(request.messages.at(-1))).toBe(expected.ok);
        if (actual.ok && expected.ok) expect(actual.text).toBe(expected.text);
      }
      let compared = 0;
      for (const message of samples) {
        const expected = modelOutput(testCase, handed(message), template, reference);
        if (expected === undefined) continue;
        compared++;
        // @toolcall/jinja at the same clock (the default renderer of `modelOutput`).
        expect(modelOutput(testCase, message, template), expected).toBe(expected);
        const result = roundTrip({
          template,
          output: expected,
          messages: messagesFor(testCase),
          tools: TOOLS,
          syntax: testCase.syntax,
          variables: testCase.variables,
          now: RENDER_NOW,
        });
        expect({ ok: result.ok, at: result.firstDifference, error: result.error }, expected).toMatchObject({
          ok: true,
        });
      }
      expect(compared, "most samples render").toBeGreaterThanOrEqual(6);
    });
  }
});
