import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, truncate, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type RunResult, run, tempDir } from "./helpers.js";

// `toolcall roundtrip` on real chat templates (read in ../shared/templates, never copied into the repository): the
// model's output is what the reference renderer (../shared/parity/hf_render.py: Python + Jinja2 as transformers
// sets them up) writes for a generated assistant turn, after the generation prompt; the command parses it and
// renders it back through the built bin.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const shared = resolve(repoRoot, "../shared");
const templatesDir = join(shared, "templates");
const hfRender = join(shared, "parity", "hf_render.py");
const templatePath = (name: string) => join(templatesDir, `${name}.jinja`);

const TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Current weather for a city",
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, days: { type: "integer" }, metric: { type: "boolean" } },
        required: ["city"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "search",
      description: "Search the web",
      parameters: {
        type: "object",
        properties: { query: { type: "string" }, filters: { type: "object" } },
        required: ["query"],
      },
    },
  },
];
const USER = [{ role: "user", content: "Weather in Zürich, and news about it?" }];
const TOKENS = { bos_token: "<s>", eos_token: "</s>" };

interface Family {
  /** The syntax id the template is detected as. */
  syntax: string;
  template: string;
  /** The most calls one message renders. */
  calls: number;
  /** `content` of the generated turn: null, or "" where the template prints `None` or raises on null. */
  content: null | "";
  /** The turn's reasoning, for templates that render the last turn's reasoning. */
  reasoning?: string;
  ids?: (name: string, index: number) => string;
  variables?: Record<string, unknown>;
  /**
   * The token the model stops on after its calls, when the template writes one there instead of its end of turn:
   * stripped by the server as the end of turn is.
   */
  stop?: string;
}

const nineChars = (_name: string, index: number) => `call${index}abcd`;

/** One template per family of ../shared/templates. */
const FAMILIES: Family[] = [
  {
    syntax: "hermes",
    template: "Qwen-Qwen3-8B",
    calls: 2,
    content: null,
    reasoning: "The user wants the weather.",
  },
  { syntax: "qwen3-coder", template: "Qwen-Qwen3-Coder-30B-A3B-Instruct", calls: 2, content: null },
  { syntax: "glm45", template: "zai-org-GLM-4.5", calls: 2, content: "", reasoning: "Look it up." },
  { syntax: "glm47", template: "zai-org-GLM-4.7-Flash", calls: 2, content: "", reasoning: "Look it up." },
  {
    syntax: "kimi-k2",
    template: "moonshotai-Kimi-K2-Instruct",
    calls: 2,
    content: null,
    ids: (name, index) => `functions.${name}:${index}`,
  },
  { syntax: "deepseek-v3", template: "deepseek-ai-DeepSeek-V3", calls: 2, content: null },
  { syntax: "deepseek-v31", template: "deepseek-ai-DeepSeek-V3.1", calls: 2, content: null },
  {
    syntax: "mistral-list",
    template: "mistralai-Mistral-Small-3.1-24B-Instruct-2503",
    calls: 2,
    content: null,
    ids: nineChars,
  },
  {
    syntax: "mistral-call-id",
    template: "mistralai-Mistral-Small-3.2-24B-Instruct-2506",
    calls: 2,
    content: null,
    ids: nineChars,
  },
  { syntax: "mistral-args", template: "mistralai-Devstral-Small-2-24B-Instruct-2512", calls: 2, content: "" },
  { syntax: "llama3-json", template: "meta-llama-Llama-3.1-8B-Instruct", calls: 1, content: null },
  { syntax: "harmony", template: "openai-gpt-oss-120b", calls: 1, content: "" },
  {
    syntax: "gemma4",
    template: "google-gemma-4-31B-it",
    calls: 2,
    content: null,
    variables: { enable_thinking: true },
    // `<|tool_response>` (id 50) is in Gemma 4's generation_config eos_token_id ([1, 106, 50]): a calling turn
    // ends there (Rapid-MLX#1177, vllm-mlx#383 give the ids and the symptom when it is not a stop token).
    stop: "<|tool_response>",
  },
];

/** Words a template keeps as they are (no leading or trailing space: some syntaxes trim values). */
const word = fc.stringMatching(/^[A-Za-zäöü東京]{1,8}$/);
const phrase = fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(" "));
const call = fc.oneof(
  fc
    .record(
      { city: phrase, days: fc.integer({ min: 0, max: 99_999 }), metric: fc.boolean() },
      { requiredKeys: ["city"] },
    )
    .map((args) => ({ name: "get_weather", args: args as Record<string, unknown> })),
  fc
    .record({ query: phrase, filters: fc.record({ lang: fc.constantFrom("de", "en"), safe: fc.boolean() }) })
    .map((args) => ({ name: "search", args: args as Record<string, unknown> })),
);

interface Generated {
  family: Family;
  calls: { name: string; args: Record<string, unknown> }[];
  /** The model's output: the rendered turn after the generation prompt, without the end-of-turn text. */
  output?: string;
  /** The end-of-turn text the rendered turn ended with (the stop token and what the template adds after it). */
  endOfTurn?: string;
  error?: string;
}

// hf_render.py's own render(), fed the cases as a Python caller would: arguments as the mapping the template takes,
// or as the JSON text (DeepSeek concatenates it).
const DRIVER = `
import json, runpy, sys
hf = runpy.run_path(sys.argv[1], run_name="hf_render")
out = []
for case in json.load(sys.stdin):
    try:
        out.append({"ok": hf["render"](case)})
    except Exception as e:
        out.append({"error": f"{type(e).__name__}: {e}"})
json.dump(out, sys.stdout, ensure_ascii=False)
`;

function renderReference(cases: readonly Record<string, unknown>[]): ({ ok: string } | { error: string })[] {
  const result = spawnSync("python3", ["-c", DRIVER, hfRender], {
    input: JSON.stringify(cases),
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (result.status !== 0) throw new Error(`the reference renderer failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** What the model wrote for each generated turn, as the reference renders it. */
function generate(family: Family, form: "mapping" | "string", seed: number): Generated[] {
  const samples = fc.sample(fc.array(call, { minLength: 1, maxLength: family.calls }), { seed, numRuns: 3 });
  const source = readFileSync(templatePath(family.template), "utf8");
  const kwargs = { ...TOKENS, ...family.variables };
  const base = { template: source, tools: TOOLS, kwargs };
  const turns = samples.map((calls) => {
    const message: Record<string, unknown> = {
      role: "assistant",
      content: family.content,
      tool_calls: calls.map((c, index) => ({
        id: family.ids ? family.ids(c.name, index) : `call_${index}`,
        type: "function",
        function: { name: c.name, arguments: form === "string" ? JSON.stringify(c.args) : c.args },
      })),
    };
    if (family.reasoning !== undefined) {
      message.reasoning_content = family.reasoning;
      message.thinking = family.reasoning;
    }
    return message;
  });
  const rendered = renderReference([
    { ...base, messages: USER },
    { ...base, messages: USER, add_generation_prompt: true },
    { ...base, messages: [...USER, { role: "assistant", content: "\u0000E" }] },
    ...turns.map((turn) => ({ ...base, messages: [...USER, turn] })),
  ]);
  const [prior, prompt, plain, ...full] = rendered.map((r) => ("ok" in r ? r.ok : r.error));
  if (prior === undefined || prompt === undefined || plain === undefined) throw new Error("no reference");
  const generationPrompt = prompt.slice(prior.length);
  const endOfTurn = plain.slice(plain.indexOf("\u0000E") + 2);
  return samples.map((calls, i) => {
    const outcome = rendered[3 + i] as { ok: string } | { error: string };
    if ("error" in outcome) return { family, calls, error: outcome.error };
    let turn = (full[i] as string).slice(prior.length);
    if (!turn.startsWith(generationPrompt))
      return { family, calls, error: `the turn does not start with the generation prompt: ${turn}` };
    turn = turn.slice(generationPrompt.length);
    // Servers strip the stop token: the output ends where the end-of-turn text begins.
    const ended = endOfTurn !== "" && turn.endsWith(endOfTurn);
    if (ended) turn = turn.slice(0, -endOfTurn.length);
    if (family.stop !== undefined && turn.endsWith(family.stop)) turn = turn.slice(0, -family.stop.length);
    return { family, calls, output: turn, ...(ended ? { endOfTurn } : {}) };
  });
}

let dir: string;
let toolsPath: string;
let userPath: string;
const generated: Generated[] = [];

beforeAll(async () => {
  dir = await tempDir();
  toolsPath = join(dir, "tools.json");
  userPath = join(dir, "user.json");
  await writeFile(toolsPath, JSON.stringify(TOOLS));
  await writeFile(userPath, JSON.stringify(USER));
  // The probe tells the form each template takes a call's arguments in (DeepSeek: the JSON text).
  for (const [index, family] of FAMILIES.entries()) {
    const probe = await run(["probe", "--template", templatePath(family.template), "--json"]);
    expect(probe.code, probe.err).toBe(0);
    const probed = JSON.parse(probe.out);
    expect(probed.syntax.id, family.template).toBe(family.syntax);
    generated.push(...generate(family, probed.capabilities.argumentsForm, 1000 + index));
  }
}, 300_000);

const args = (family: Family, raw: string) => [
  "roundtrip",
  "--template",
  templatePath(family.template),
  "--output",
  raw,
  "--messages",
  userPath,
  "--tools",
  toolsPath,
  "--bos-token",
  "<s>",
  "--eos-token",
  "</s>",
  ...Object.entries(family.variables ?? {}).flatMap(([name, value]) => [
    "--var",
    `${name}=${JSON.stringify(value)}`,
  ]),
  "--json",
];

describe("roundtrip: a real rendered output round-trips byte for byte, for every family", () => {
  for (const family of FAMILIES) {
    it(`${family.syntax} (${family.template})`, async () => {
      const cases = generated.filter((g) => g.family === family);
      expect(cases.map((g) => g.error)).toEqual(cases.map(() => undefined));
      for (const [i, generatedCase] of cases.entries()) {
        const raw = join(dir, `${family.syntax}-${i}.txt`);
        await writeFile(raw, generatedCase.output as string);
        const result = await run(args(family, raw));
        const label = `${family.template} ${JSON.stringify(generatedCase.output)}\n${result.err}`;
        expect(result.code, label).toBe(0);
        const report = JSON.parse(result.out);
        expect(report, label).toMatchObject({
          command: "roundtrip",
          ok: true,
          difference: null,
          syntax: { id: family.syntax, method: "render" },
          bytes: Buffer.byteLength(generatedCase.output as string),
        });
        // The parse gives back the calls that were rendered.
        expect(
          report.parsed.toolCalls.map((c: { function: { name: string; arguments: string } }) => ({
            name: c.function.name,
            args: JSON.parse(c.function.arguments),
          })),
          label,
        ).toEqual(generatedCase.calls);
      }
      // As the model sampled it, the stop token kept (`<|im_end|>`, `<|eot_id|>`, `</s>`: the end of turn's visible
      // part), the output round-trips too.
      const sampled = cases.find((g) => g.endOfTurn !== undefined && g.endOfTurn.trimEnd() !== "");
      if (sampled !== undefined) {
        const raw = join(dir, `${family.syntax}-sampled.txt`);
        await writeFile(raw, `${sampled.output}${sampled.endOfTurn?.trimEnd()}`);
        const result = await run(args(family, raw));
        expect(result.code, `${family.template} with ${sampled.endOfTurn}\n${result.out}`).toBe(0);
        expect(JSON.parse(result.out).parsed.toolCalls).toHaveLength(sampled.calls.length);
      }
    });
  }
});

describe("roundtrip: where a mangled output differs", () => {
  it("a space the template does not write, after non-ASCII text: its byte offset, line and column", async () => {
    const family = FAMILIES[0] as Family;
    const original = generated.find((g) => g.family === family && g.calls.length === 2)?.output;
    if (original === undefined) throw new Error("no two-call Hermes turn was generated");
    // The template writes the envelope `{"name": …` itself: `{ "name"` parses the same and renders otherwise.
    const at = original.lastIndexOf('{"name"') + 1;
    const mangled = `${original.slice(0, at)} ${original.slice(at)}`;
    expect(Buffer.byteLength(mangled.slice(0, at))).toBeGreaterThan(at); // the first call's values are not ASCII
    const raw = join(dir, "mangled.txt");
    await writeFile(raw, mangled);
    const json = await run(args(family, raw));
    expect(json.code, json.err).toBe(1);
    const report = JSON.parse(json.out);
    const head = mangled.slice(0, at);
    expect(report).toMatchObject({ ok: false, syntax: { id: "hermes" } });
    expect(report.difference).toEqual({
      offset: at,
      byteOffset: Buffer.byteLength(head),
      line: head.split("\n").length,
      column: [...head.slice(head.lastIndexOf("\n") + 1)].length + 1,
      inPrompt: false,
      before: expect.stringMatching(/\n\{$/),
      output: expect.stringMatching(/^ "name": "/),
      rendered: expect.stringMatching(/^"name": "/),
    });
    // The human report: the offset, both sides on one line each, a caret under the first byte that differs.
    const human = await run(args(family, raw).filter((arg) => arg !== "--json"));
    expect(human.code).toBe(1);
    const lines = human.out.split("\n");
    expect(lines[0]).toBe(
      `${raw}: differs at byte ${Buffer.byteLength(head)} (line ${report.difference.line}, column ${report.difference.column}); syntax hermes, detected by differential rendering`,
    );
    const output = lines.find((line) => line.startsWith("  output    ")) as string;
    const rendered = lines.find((line) => line.startsWith("  rendered  ")) as string;
    const caret = lines.find((line) => /^ +\^$/.test(line)) as string;
    expect(output.slice(caret.length - 1)).toMatch(/^ "name": "/);
    expect(rendered.slice(caret.length - 1)).toMatch(/^"name": "/);
    expect(output.slice(0, caret.length - 1).replace("output  ", "rendered")).toBe(
      rendered.slice(0, caret.length - 1),
    );
    expect(human.out).toMatch(/^ {2}parsed: 2 calls \(/m);
  });

  it("a template that renders the turn's start otherwise than its prompt (QwQ drops past reasoning)", async () => {
    const raw = join(dir, "qwq.txt");
    await writeFile(
      raw,
      'Okay.\n</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
    );
    const result = await run(["roundtrip", "--template", templatePath("Qwen-QwQ-32B"), "--output", raw]);
    expect(result.code).toBe(1);
    expect(result.out).toContain(
      "differs before the output begins: the template renders the turn's start otherwise than its generation prompt",
    );
    expect(result.out).toContain("  output    <|im_start|>assistant\\n<think>\\nOkay.");
  });

  it("a newline the file was saved with is named as such", async () => {
    const family = FAMILIES[0] as Family;
    const raw = join(dir, "newline.txt");
    await writeFile(raw, `${generated.find((g) => g.family === family)?.output}\n`);
    const result = await run(args(family, raw));
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out).hint).toMatch(/newline the file was saved with/);
  });
});

describe("roundtrip: bad input gets a clear error and exit 2, never a crash", () => {
  const qwen = templatePath("Qwen-Qwen3-8B");
  let ok: string;
  beforeAll(async () => {
    ok = join(dir, "ok.txt");
    await writeFile(ok, '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>');
  });
  const noTrace = (result: RunResult) => expect(result.err).not.toMatch(/\n\s+at |TypeError|RangeError/);

  it("missing, binary, huge, a directory; an unknown syntax; a template with no syntax", async () => {
    const png = join(dir, "image.png");
    await writeFile(png, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe]));
    const nul = join(dir, "nul.txt");
    await writeFile(nul, "hello\u0000world");
    const huge = join(dir, "huge.txt");
    await writeFile(huge, "");
    await truncate(huge, 1024 ** 3); // sparse: a gigabyte that takes no disk
    const folder = join(dir, "folder");
    await mkdir(folder);
    const notConversation = join(dir, "scalar.json");
    await writeFile(notConversation, "42");
    const cases: [string[], string, { input?: Buffer }?][] = [
      [["--template", qwen, "--output", join(dir, "missing.txt")], "missing.txt: no such file or directory"],
      [
        ["--template", join(dir, "missing.jinja"), "--output", ok],
        "missing.jinja: no such file or directory",
      ],
      [["--template", qwen, "--output", png], "image.png: is not UTF-8 text"],
      [
        ["--template", qwen, "--output", nul],
        "nul.txt: holds a NUL byte at offset 5: a binary file, not text",
      ],
      [["--template", qwen, "--output", huge], "huge.txt: is 1 GiB: at most 16 MiB is read"],
      [
        ["--template", qwen, "--output", "-"],
        "-: is longer than 16 MiB: at most 16 MiB is read",
        { input: Buffer.alloc(17 * 1024 ** 2, "a") },
      ],
      [["--template", qwen, "--output", folder], "folder: is a directory"],
      [["--template", qwen, "--output", ok, "--messages", notConversation], "is not a conversation"],
      [
        ["--template", qwen, "--output", ok, "--syntax", "nope"],
        'unknown syntax "nope" (known: deepseek-v31, deepseek-v3, deepseek-v32, command-a, command-r7b, seed-oss,',
      ],
      [
        ["--template", templatePath("google-gemma-3-it"), "--output", ok],
        "no known tool-call syntax found in the template; name one with --syntax ID",
      ],
      [["--template", qwen], "give --output RAW"],
      [["--output", ok], "give --template FILE"],
      [["--template", "-", "--output", "-"], "standard input (-) can be read once"],
      [
        ["--template", qwen, "--output", ok, "--var", "add_generation_prompt=true"],
        "set by the round trip itself",
      ],
    ];
    const results = await Promise.all(
      cases.map(([rest, , options]) =>
        run(["roundtrip", ...rest], options?.input ? { input: options.input } : {}),
      ),
    );
    results.forEach((result, i) => {
      const [rest, message] = cases[i] as (typeof cases)[number];
      expect(result.code, rest.join(" ")).toBe(2);
      expect(result.stdout.length, rest.join(" ")).toBe(0);
      expect(result.err, rest.join(" ")).toContain(message);
      noTrace(result);
    });
  });

  it("a template that does not compile exits 1 with Python's error; one that raises on the parsed turn says so", async () => {
    const broken = join(dir, "broken.jinja");
    await writeFile(broken, "{% for m in messages %}{{ m.content }}");
    const compile = await run(["roundtrip", "--template", broken, "--output", ok]);
    expect(compile.code).toBe(1);
    expect(compile.err).toMatch(/^TemplateSyntaxError: /);
    const two = join(dir, "llama-two.txt");
    await writeFile(
      two,
      '{"name": "get_weather", "parameters": {"city": "Paris"}}; {"name": "get_weather", "parameters": {"city": "Lyon"}}',
    );
    const raised = await run([
      "roundtrip",
      "--template",
      templatePath("meta-llama-Llama-3.1-8B-Instruct"),
      "--output",
      two,
    ]);
    expect(raised.code).toBe(1);
    expect(raised.out).toContain(
      "the template could not render the parsed message: TemplateError: This model only supports single tool-calls at once!",
    );
    expect(raised.out).toContain("parsed: 2 calls (get_weather, get_weather)");
    noTrace(raised);
  });

  it("an empty output, a template without syntax given one, standard input: a verdict, no error", async () => {
    const empty = join(dir, "empty.txt");
    await writeFile(empty, "");
    const results = await Promise.all([
      run(["roundtrip", "--template", qwen, "--output", empty, "--json"]),
      run([
        "roundtrip",
        "--template",
        templatePath("google-gemma-3-it"),
        "--output",
        ok,
        "--syntax",
        "hermes",
      ]),
      run(["roundtrip", "--template", templatePath("Qwen-Qwen2.5-7B-Instruct"), "--output", "-", "--json"], {
        input: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
      }),
    ]);
    for (const result of results) {
      expect([0, 1], result.err).toContain(result.code);
      expect(result.err).toBe("");
    }
    expect(JSON.parse((results[2] as RunResult).out)).toMatchObject({
      ok: true,
      output: "-",
      syntax: { id: "hermes", method: "render" },
    });
    expect((results[1] as RunResult).out).toContain("syntax hermes, named with --syntax");
  });
});

describe("roundtrip and probe: the README's sample reports are what the commands print", () => {
  const readme = readFileSync(join(repoRoot, "apps", "cli", "README.md"), "utf8");
  /** The text of the untagged fence that starts with `first`. */
  const sample = (first: string) => {
    const start = readme.indexOf(`\n\`\`\`\n${first}`);
    if (start === -1) throw new Error(`no README sample starting ${first}`);
    const body = start + "\n```\n".length;
    return readme.slice(body, readme.indexOf("\n```\n", body) + 1);
  };

  it("roundtrip on Qwen2.5 with compact arguments", async () => {
    const work = await tempDir();
    await writeFile(
      join(work, "raw.txt"),
      '<tool_call>\n{"name": "get_weather", "arguments": {"city":"Zürich"}}\n</tool_call>',
    );
    const result = await run(
      ["roundtrip", "--template", templatePath("Qwen-Qwen2.5-7B-Instruct"), "--output", "raw.txt"],
      { cwd: work },
    );
    expect(result.code).toBe(1);
    expect(result.out).toBe(sample("raw.txt: differs"));
  });

  it("probe on DeepSeek V3", async () => {
    const result = await run(["probe", "--template", "deepseek-ai-DeepSeek-V3.jinja"], { cwd: templatesDir });
    expect(result.code).toBe(0);
    expect(result.out).toBe(sample("deepseek-ai-DeepSeek-V3.jinja\n"));
  });
});

describe("roundtrip: coverage of the generated turns", () => {
  it("most families end a calling turn with their end of turn, so the sampled stop token is tried", () => {
    const withStop = FAMILIES.filter((family) =>
      generated.some((g) => g.family === family && (g.endOfTurn?.trimEnd() ?? "") !== ""),
    ).map((family) => family.syntax);
    // GLM writes no end of turn (the next role's token ends it), gpt-oss ends a call with `<|call|>` (part of the
    // syntax), Gemma 4 with `<|tool_response>` (its own stop token, above).
    expect(withStop).toEqual([
      "hermes",
      "qwen3-coder",
      "kimi-k2",
      "deepseek-v3",
      "deepseek-v31",
      "mistral-list",
      "mistral-call-id",
      "mistral-args",
      "llama3-json",
    ]);
  });
});
