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
    for (const stop of [endOfTurn, family.stop ?? ""])
      if (stop !== "" && turn.endsWith(stop)) turn = turn.slice(0, -stop.length);
    return { family, calls, output: turn };
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
    });
  }
});
