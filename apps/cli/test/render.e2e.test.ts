import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { type RunResult, run, tempDir } from "./helpers.js";

// `toolcall render` and `toolcall probe` on real chat templates, through the built bin, compared byte for byte with
// the reference renderer: Python + Jinja2 set up as transformers' apply_chat_template sets it up
// (../shared/parity/hf_render.py). The templates and the reference are read where they are, in the shared directory
// beside the repository (as @toolcall/jinja's parity tests read them), never copied into it.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const shared = resolve(repoRoot, "../shared");
const templatesDir = join(shared, "templates");
const hfRender = join(shared, "parity", "hf_render.py");

const QWEN_CODER = join(templatesDir, "Qwen-Qwen3-Coder-30B-A3B-Instruct.jinja");
const QWEN3 = join(templatesDir, "Qwen-Qwen3-8B.jinja");
const LLAMA = join(templatesDir, "meta-llama-Llama-3.1-8B-Instruct.jinja");
// Llama 3.2 prints the date strftime_now gives: the clock is part of the prompt.
const LLAMA_32 = join(templatesDir, "meta-llama-Llama-3.2-3B-Instruct.jinja");
const DEEPSEEK = join(templatesDir, "deepseek-ai-DeepSeek-V3.jinja");
const GEMMA = join(templatesDir, "google-gemma-4-31B-it.jinja");
// Mistral Small 3.2 insists on call ids of nine alphanumerics.
const MISTRAL = join(templatesDir, "mistralai-Mistral-Small-3.2-24B-Instruct-2506.jinja");
const TEMPLATES = [QWEN_CODER, LLAMA, LLAMA_32, DEEPSEEK, GEMMA, MISTRAL];

/** hf_render.py's clock, as local time (Python's naive datetime). */
const NOW = "2026-01-02T03:04:05";
const TOKENS = { bos_token: "<s>", eos_token: "</s>" };

// Written as text: the float default 1.0 must reach both renderers as a float.
const TOOLS_TEXT = `[
  {"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city",
    "parameters": {"type": "object", "properties": {
      "city": {"type": "string", "description": "City name, e.g. \\"Zürich\\""},
      "celsius": {"type": "number", "default": 1.0},
      "days": {"type": "integer", "minimum": 0}},
    "required": ["city"]}}},
  {"type": "function", "function": {"name": "search", "description": "Search the web",
    "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "filters": {"type": "object"}},
    "required": ["query"]}}}
]`;

/** Wire-form arguments, as models and servers write them: spaces, floats, big integers, non-ASCII, nesting. */
const WEATHER_ARGS = '{"city": "Zürich \\"old town\\"", "celsius": 20.0, "days": 12345678901234567890}';
const SEARCH_ARGS =
  '{"query": "東京 weather 😀", "filters": {"safe": true, "lang": null, "sites": ["a.com", "b.org"]}}';

/** A real agent turn: system, user, the calls (ids of nine alphanumerics, as Mistral insists), results, answer. */
function conversationText(calls: readonly string[], content: string | null): string {
  const toolCalls = calls.map((args, i) => ({
    id: `call${i}abcd`,
    type: "function",
    function: { name: i === 0 ? "get_weather" : "search", arguments: args },
  }));
  const messages = [
    { role: "system", content: "You are a helpful assistant." },
    { role: "user", content: "Weather in Zürich, and search for Tokyo?" },
    { role: "assistant", content, tool_calls: toolCalls },
    ...toolCalls.map((call, i) => ({ role: "tool", tool_call_id: call.id, content: `result ${i}: "ok"` })),
    { role: "assistant", content: "Done." },
    { role: "user", content: "Thanks!" },
  ];
  return `{"messages": ${JSON.stringify(messages, null, 1)}, "tools": ${TOOLS_TEXT}}\n`;
}

const SINGLE = conversationText([WEATHER_ARGS], null);
const PARALLEL = conversationText([WEATHER_ARGS, SEARCH_ARGS], "");

type Outcome = { ok: string } | { error: string };

interface ReferenceCase {
  template: string;
  conversation: string;
  form: "mapping" | "string";
  kwargs: Record<string, unknown>;
  add_generation_prompt?: boolean;
}

// hf_render.py's own render(), fed by a driver that reads each conversation with json.loads, as a Python caller
// would, and decodes the wire arguments with json.loads for templates that take a mapping.
const REFERENCE_DRIVER = `
import json, runpy, sys
hf = runpy.run_path(sys.argv[1], run_name="hf_render")
out = []
for case in json.load(sys.stdin):
    conversation = json.loads(case["conversation"])
    if isinstance(conversation, list):
        messages, tools = conversation, None
    else:
        messages, tools = conversation["messages"], conversation.get("tools")
    if case["form"] == "mapping":
        for message in messages:
            for call in message.get("tool_calls") or []:
                call["function"]["arguments"] = json.loads(call["function"]["arguments"])
    try:
        out.append({"ok": hf["render"]({"template": case["template"], "messages": messages, "tools": tools,
            "add_generation_prompt": case.get("add_generation_prompt", True), "kwargs": case["kwargs"]})})
    except Exception as e:
        out.append({"error": f"{type(e).__name__}: {e}"})
json.dump(out, sys.stdout, ensure_ascii=False)
`;

/** Every case in one Python process. */
function renderReference(cases: readonly ReferenceCase[]): Outcome[] {
  const result = spawnSync("python3", ["-c", REFERENCE_DRIVER, hfRender], {
    input: JSON.stringify(cases),
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (result.status !== 0) throw new Error(`the reference renderer failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Outcome[];
}

/** The same outcome: identical bytes on standard output and exit 0, or Python's error on standard error and exit 1. */
function expectSameAs(result: RunResult, expected: Outcome | undefined, label: string): void {
  if (expected === undefined) throw new Error(`no reference for ${label}`);
  if ("ok" in expected) {
    expect(result.err, label).toBe("");
    expect(result.code, label).toBe(0);
    expect(result.out, label).toBe(expected.ok);
    expect(result.stdout.equals(Buffer.from(expected.ok, "utf8")), `${label}: bytes`).toBe(true);
  } else {
    expect(result.code, label).toBe(1);
    expect(result.stdout.length, label).toBe(0);
    expect(result.err, label).toBe(`${expected.error}\n`);
  }
}

const base = (template: string, messages: string) => [
  "render",
  "--template",
  template,
  "--messages",
  messages,
  "--add-generation-prompt",
  "--now",
  NOW,
];

let dir: string;
let singlePath: string;
let parallelPath: string;
const forms = new Map<string, "mapping" | "string">();

beforeAll(async () => {
  dir = await tempDir();
  singlePath = join(dir, "single.json");
  parallelPath = join(dir, "parallel.json");
  await writeFile(singlePath, SINGLE);
  await writeFile(parallelPath, PARALLEL);
  // The probe tells how each template takes arguments, so the reference gets them in the same form.
  const probes = await Promise.all(
    TEMPLATES.map((template) => run(["probe", "--template", template, "--json"])),
  );
  probes.forEach((probe, i) => {
    expect(probe.code, probe.err).toBe(0);
    forms.set(TEMPLATES[i] as string, JSON.parse(probe.out).capabilities.argumentsForm);
  });
});

describe("render: byte for byte what transformers gives", () => {
  it("real templates, one call and two in parallel; a template that raises exits 1 with Python's message", async () => {
    const cases = TEMPLATES.flatMap((template) =>
      [
        { name: "single", path: singlePath, text: SINGLE },
        { name: "parallel", path: parallelPath, text: PARALLEL },
      ].map((conversation) => ({ template, conversation })),
    );
    const expected = renderReference(
      cases.map(({ template, conversation }) => ({
        template: readFileSync(template, "utf8"),
        conversation: conversation.text,
        form: forms.get(template) as "mapping" | "string",
        kwargs: TOKENS,
      })),
    );
    const results = await Promise.all(
      cases.map(({ template, conversation }) =>
        run([...base(template, conversation.path), "--bos-token", "<s>", "--eos-token", "</s>"]),
      ),
    );
    results.forEach((result, i) => {
      const { template, conversation } = cases[i] as (typeof cases)[number];
      expectSameAs(result, expected[i], `${template.split("/").pop()} ${conversation.name}`);
    });
    // The cases exercise both outcomes: Llama takes one call per message and raises on two.
    const raised = cases.filter((_, i) => expected[i] !== undefined && "error" in expected[i]);
    expect(raised.map(({ template, conversation }) => [template, conversation.name])).toEqual([
      [LLAMA, "parallel"],
      [LLAMA_32, "parallel"],
    ]);
    expect(expected[cases.indexOf(raised[0] as (typeof cases)[number])]).toEqual({
      error: expect.stringMatching(/^TemplateError: .*single tool-calls/),
    });
  });

  it("a tokenizer_config.json: its chat_template and its special tokens (string or AddedToken object)", async () => {
    const config = join(dir, "tokenizer_config.json");
    const source = readFileSync(LLAMA, "utf8");
    await writeFile(
      config,
      JSON.stringify({
        bos_token: { __type: "AddedToken", content: "<|begin_of_text|>", lstrip: false, special: true },
        eos_token: "<|eot_id|>",
        pad_token: null,
        chat_template: source,
      }),
    );
    const kwargs = { bos_token: "<|begin_of_text|>", eos_token: "<|eot_id|>" };
    const [fromConfig, overridden] = renderReference([
      { template: source, conversation: SINGLE, form: "mapping", kwargs },
      { template: source, conversation: SINGLE, form: "mapping", kwargs: { ...kwargs, bos_token: "<BOS>" } },
    ]);
    expectSameAs(await run(base(config, singlePath)), fromConfig, "tokenizer_config.json");
    expectSameAs(
      await run([...base(config, singlePath), "--bos-token", "<BOS>"]),
      overridden,
      "tokenizer_config.json with --bos-token",
    );
  });

  it("named templates: tool_use when the conversation has tools, else default, or --template-name", async () => {
    const config = join(dir, "named_config.json");
    await writeFile(
      config,
      JSON.stringify({
        chat_template: [
          {
            name: "default",
            template: "{{ bos_token }}default:{% for m in messages %}{{ m.role }};{% endfor %}",
          },
          { name: "tool_use", template: "tool_use:{{ tools | length }}" },
        ],
        bos_token: "<s>",
      }),
    );
    const withTools = await run(base(config, singlePath));
    expect(withTools.out).toBe("tool_use:2");
    const noTools = join(dir, "no-tools.json");
    await writeFile(noTools, JSON.stringify([{ role: "user", content: "hi" }]));
    expect((await run(base(config, noTools))).out).toBe("<s>default:user;");
    expect((await run([...base(config, singlePath), "--template-name", "default"])).out).toBe(
      "<s>default:system;user;assistant;tool;assistant;user;",
    );
    const probed = JSON.parse((await run(["probe", "--template", config, "--json"])).out);
    expect(probed).toMatchObject({
      templateName: "tool_use",
      capabilities: { toolCalls: false },
    });
    const missing = await run([...base(config, singlePath), "--template-name", "nope"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('no template named "nope" (it has "default", "tool_use")');
  });

  it("--var, stdin and --tools: template variables as JSON values, the conversation from a pipe", async () => {
    const toolsPath = join(dir, "tools.json");
    await writeFile(toolsPath, JSON.stringify({ tools: [JSON.parse(TOOLS_TEXT)[1]] }));
    const onlySearch = `{"messages": ${JSON.stringify(JSON.parse(SINGLE).messages)}, "tools": [${JSON.stringify(JSON.parse(TOOLS_TEXT)[1])}]}`;
    const [noThinking, withTools] = renderReference([
      {
        template: readFileSync(QWEN3, "utf8"),
        conversation: SINGLE,
        form: "mapping",
        kwargs: { ...TOKENS, enable_thinking: false },
      },
      { template: readFileSync(QWEN_CODER, "utf8"), conversation: onlySearch, form: "mapping", kwargs: {} },
    ]);
    expectSameAs(
      await run(
        [
          ...base(QWEN3, "-"),
          "--var",
          "enable_thinking=false",
          "--var",
          "bos_token=<s>",
          "--eos-token",
          "</s>",
        ],
        { input: SINGLE },
      ),
      noThinking,
      "Qwen3 --var enable_thinking=false from stdin",
    );
    expectSameAs(
      await run([...base(QWEN_CODER, singlePath), "--tools", toolsPath]),
      withTools,
      "Qwen3-Coder --tools",
    );
  });

  it("arguments that are not a JSON object render as R1 says and are named on standard error", async () => {
    const broken = join(dir, "broken.json");
    await writeFile(broken, conversationText(['{"city": "Paris"', ""], null));
    const result = await run(base(QWEN_CODER, broken));
    expect(result.code).toBe(0);
    expect(result.out).toContain("<parameter=_raw_arguments>");
    expect(result.err).toBe(
      [
        'toolcall render: note: messages[2].tool_calls[0] has arguments that are not JSON: the template gets {"_raw_arguments": <the text>}',
        "toolcall render: note: messages[2].tool_calls[1] has empty arguments: the template gets {}",
        "",
      ].join("\n"),
    );
  });

  it("unreadable input exits 2 and renders nothing; bad usage exits 2", async () => {
    const jsonl = join(dir, "two.jsonl");
    await writeFile(jsonl, `${JSON.stringify(JSON.parse(SINGLE))}\n${JSON.stringify(JSON.parse(SINGLE))}\n`);
    const notConversation = join(dir, "scalar.json");
    await writeFile(notConversation, "42");
    const noTemplate = join(dir, "config.json");
    await writeFile(noTemplate, JSON.stringify({ bos_token: "<s>" }));
    const cases: [string[], string][] = [
      [base(QWEN_CODER, join(dir, "missing.json")), "missing.json: no such file or directory"],
      [base(QWEN_CODER, jsonl), "is JSONL with 2 lines; render takes one conversation"],
      [base(QWEN_CODER, notConversation), "is not a conversation"],
      [base(QWEN_CODER, "-"), "-: is not JSON"],
      [base(join(dir, "missing.jinja"), singlePath), "missing.jinja: no such file or directory"],
      [base(noTemplate, singlePath), "has no chat_template field"],
      [["render", "--messages", singlePath], "give --template FILE"],
      [["render", "--template", "-", "--messages", "-"], "standard input (-) can be read once"],
      [[...base(QWEN_CODER, singlePath), "--var", "no-equals"], "--var wants NAME=VALUE"],
      [[...base(QWEN_CODER, singlePath), "--var", "messages=[]"], "messages is set by --messages"],
      [[...base(QWEN_CODER, singlePath), "--now", "yesterday"], "--now wants an ISO 8601"],
      [["probe"], "give --template FILE"],
      [["probe", "--template", join(dir, "missing.jinja")], "no such file or directory"],
    ];
    const results = await Promise.all(cases.map(([args]) => run(args)));
    results.forEach((result, i) => {
      const [args, message] = cases[i] as [string[], string];
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stdout.length, args.join(" ")).toBe(0);
      expect(result.err, args.join(" ")).toContain(message);
    });
  });
});

describe("probe", () => {
  it("DeepSeek takes arguments as a string, Qwen as a mapping (table and JSON)", async () => {
    expect(forms.get(DEEPSEEK)).toBe("string");
    expect(forms.get(QWEN_CODER)).toBe("mapping");
    const deepseek = await run(["probe", "--template", DEEPSEEK]);
    expect(deepseek.code).toBe(0);
    expect(deepseek.out).toMatch(/^ {2}arguments form +string +/m);
    expect(deepseek.out).toMatch(/^ {2}tools +no +/m);
    const qwen = await run(["probe", "--template", QWEN_CODER]);
    expect(qwen.out).toMatch(/^ {2}arguments form +mapping +/m);
    expect(qwen.out).toMatch(/^ {2}parallel calls +yes +/m);
    const llama = JSON.parse((await run(["probe", "--template", LLAMA, "--json"])).out);
    expect(llama).toEqual({
      command: "probe",
      template: LLAMA,
      capabilities: {
        argumentsForm: "mapping",
        toolCalls: true,
        parallelToolCalls: false,
        toolCallIds: false,
        toolResponses: true,
        systemRole: true,
        nullContent: true,
        tools: true,
      },
      syntax: expect.objectContaining({ id: "llama3-json", method: "render", startInReasoning: false }),
    });
  });

  it("a template that does not compile exits 1 with Python's exception name", async () => {
    const broken = join(dir, "broken.jinja");
    await writeFile(broken, "{% for m in messages %}{{ m.content }}");
    const result = await run(["probe", "--template", broken]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^TemplateSyntaxError: /);
    const rendered = await run(base(broken, singlePath));
    expect(rendered.code).toBe(1);
    expect(rendered.err).toMatch(/^TemplateSyntaxError: /);
  });
});
