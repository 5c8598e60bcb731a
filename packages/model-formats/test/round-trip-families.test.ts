import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
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

// Real chat templates of the families ../shared/templates lacks, kept because their licences allow it (sources,
// commits and licences: __fixtures__/README.md), and the reference renderer beside the repository.
const fixtures = resolve(import.meta.dirname, "__fixtures__/templates");
const fixture = (name: string) => readFileSync(join(fixtures, `${name}.jinja`), "utf8");
const referenceRenderer = resolve(import.meta.dirname, "../../../../shared/parity/hf_render.py");

/**
 * A look-alike of MiniMax-M2's assistant turn, written for these tests from the published template's rendering (not
 * a copy; the template is not kept, see the fixtures README): a non-string value written with `| tojson`, which must
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

/** The kept templates that write a syntax of this package, what each keeps, and what it drops (the exceptions). */
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

describe("round trip over the kept templates: parse the model's output, render it back, byte for byte", () => {
  for (const testCase of CASES) {
    it(`${testCase.template} (${testCase.syntax.id})${testCase.exceptions ? `: ${testCase.exceptions}` : ""}`, () => {
      expectRoundTrips(testCase, testCase.source ?? fixture(testCase.template));
    });
  }
});

describe("the kept templates are detected by their rendering (or signature)", () => {
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
    it(`${name} → ${id} (${method})`, () => {
      expect(detectToolCallSyntax(fixture(name))).toMatchObject({ id, method });
    });

  it("Granite 3.3's template drops an assistant message's calls: no round trip is possible (its exception)", () => {
    const call = { id: "c1", type: "function", function: { name: "list_files", arguments: "{}" } };
    const rendered = safeRenderChatTemplate({
      template: fixture("ibm-granite-granite-3.3-2B-Instruct"),
      messages: [...MESSAGES, { role: "assistant", content: "", tool_calls: [call] }],
      tools: TOOLS,
    });
    // The turn renders empty: `<|start_of_role|>assistant<|end_of_role|><|end_of_text|>` (the call is gone).
    expect(rendered.ok && rendered.text.endsWith("assistant<|end_of_role|><|end_of_text|>\n")).toBe(true);
    expect(detectToolCallSyntax(fixture("ibm-granite-granite-3.3-2B-Instruct")).parallelCalls).toBe(false);
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
    it(`${testCase.template}: same prompts and turns as @toolcall/jinja, and each turn parses and renders back`, () => {
      const template = fixture(testCase.template);
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
