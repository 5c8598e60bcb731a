import { readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { detectToolCallSyntax } from "@toolcall/model-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { type RunResult, run, tempDir } from "./helpers.js";

// `toolcall probe`'s tool-call syntax on every real chat template of ../shared/templates (read where they are,
// never copied into the repository), through the built bin.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const templatesDir = join(repoRoot, "../shared/templates");

/**
 * What each template writes for an assistant turn with calls, read off its text: the marker its call loop prints
 * and the shape around it.
 */
const EXPECTED: Record<string, string | null> = {
  // `<tool_call>\n{"name": …, "arguments": …}\n</tool_call>` (Hermes-2-Pro, Hermes-3: the call's JSON via tojson).
  "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use": "hermes",
  "NousResearch-Hermes-3-Llama-3.1-8B-tool_use": "hermes",
  // Qwen2.5, QwQ, Qwen3: the same `<tool_call>` JSON, the envelope written by hand around the arguments.
  "Qwen-QwQ-32B": "hermes",
  "Qwen-Qwen2.5-7B-Instruct": "hermes",
  "Qwen-Qwen3-0.6B": "hermes",
  "Qwen-Qwen3-8B": "hermes",
  // `<tool_call>\n<function=NAME>\n<parameter=KEY>\nVALUE\n</parameter>…</function>\n</tool_call>`.
  "Qwen-Qwen3-Coder-30B-A3B-Instruct": "qwen3-coder",
  "Qwen-Qwen3-Coder-30B-A3B-Instruct.rev-2025-07-31": "qwen3-coder",
  "Qwen-Qwen3-Coder-30B-A3B-Instruct.rev-2025-08-07": "qwen3-coder",
  // The same calls, non-string values written as `tojson` (`true`, not Python's `True`).
  "Qwen-Qwen3-Coder-Next": "qwen36",
  "Qwen-Qwen3.5-4B": "qwen3-coder",
  "Qwen-Qwen3.5.miles-qwen3.5_fixed": "qwen3-coder",
  // `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n…\n```<｜tool▁call▁end｜>`.
  "deepseek-ai-DeepSeek-R1-0528-Qwen3-8B": "deepseek-v3",
  "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B": "deepseek-v3",
  "deepseek-ai-DeepSeek-R1": "deepseek-v3",
  "deepseek-ai-DeepSeek-V3": "deepseek-v3",
  // V3.1: `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>ARGUMENTS<｜tool▁call▁end｜>`, no `function` and no fence.
  "deepseek-ai-DeepSeek-V3.1": "deepseek-v31",
  // Gemma 3's template has no tool calls at all.
  "google-gemma-3-it": null,
  // `<|tool_call>call:NAME{key:<|"|>value<|"|>,…}<tool_call|>`.
  "google-gemma-4-31B-it": "gemma4",
  "google-gemma-4-31B-it.rev1-2026-04-02": "gemma4",
  "google-gemma-4-31B-it.rev2-2026-04": "gemma4",
  "google-gemma-4.vllm-tool_chat_template_gemma4": "gemma4",
  // `{"name": NAME, "parameters": {…}}` after the assistant header (one call per message).
  "meta-llama-Llama-3.1-8B-Instruct": "llama3-json",
  "meta-llama-Llama-3.2-3B-Instruct": "llama3-json",
  "meta-llama-Llama-3.3-70B-Instruct": "llama3-json",
  // `[TOOL_CALLS]NAME[ARGS]{…}`.
  "mistralai-Devstral-Small-2-24B-Instruct-2512": "mistral-args",
  "mistralai-Ministral-3-14B-Reasoning-2512": "mistral-args",
  // `[TOOL_CALLS][{"name": …, "arguments": …, "id": …}]` (Nemo without a space after the marker, 3.1 with one).
  "mistralai-Mistral-Nemo-Instruct-2407": "mistral-list",
  "mistralai-Mistral-Small-3.1-24B-Instruct-2503": "mistral-list",
  // `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}`.
  "mistralai-Mistral-Small-3.2-24B-Instruct-2506": "mistral-call-id",
  // `<|tool_calls_section_begin|><|tool_call_begin|>ID<|tool_call_argument_begin|>{…}<|tool_call_end|>…`.
  "moonshotai-Kimi-K2-Instruct": "kimi-k2",
  "moonshotai-Kimi-K2-Instruct.rev-2025-07-15.crlf": "kimi-k2",
  "moonshotai-Kimi-K2-Thinking": "kimi-k2",
  "moonshotai-Kimi-K2.5": "kimi-k2",
  // Harmony: `<|start|>assistant to=functions.NAME<|channel|>commentary json<|message|>{…}<|call|>`.
  "openai-gpt-oss-120b": "harmony",
  // `<tool_call>NAME\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n…</tool_call>` (4.5, 4.6V) …
  "zai-org-GLM-4.5": "glm45",
  "zai-org-GLM-4.6V-Flash": "glm45",
  // … and with no newline between the tags (4.7, 5.1).
  "zai-org-GLM-4.7-Flash": "glm47",
  "zai-org-GLM-5.1": "glm47",
};

/** The generation prompt ends in `<think>` (read off each template's `add_generation_prompt` branch). */
const OPENS_REASONING = new Set([
  "Qwen-QwQ-32B",
  "Qwen-Qwen3.5-4B",
  "Qwen-Qwen3.5.miles-qwen3.5_fixed",
  "deepseek-ai-DeepSeek-R1",
  "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B",
  "moonshotai-Kimi-K2.5",
  "zai-org-GLM-4.7-Flash",
  "zai-org-GLM-5.1",
]);

const files = readdirSync(templatesDir).filter((file) => file.endsWith(".jinja"));
/** The families' batch (../shared/templates/families): what each writes is held by model-formats' detection tests. */
const familyFiles = readdirSync(join(templatesDir, "families"))
  .filter((file) => file.endsWith(".jinja"))
  .map((file) => `families/${file}`);
const probes = new Map<string, RunResult>();

beforeAll(async () => {
  // A few at a time: each probe renders its template a few dozen times.
  const queue = [...files, ...familyFiles];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift())
      probes.set(file, await run(["probe", "--template", join(templatesDir, file), "--json"]));
  };
  await Promise.all([worker(), worker(), worker()]);
}, 600_000);

interface ProbedSyntax {
  id: string | null;
  family: string | null;
  module: string | null;
  markers: string[];
  startInReasoning: boolean;
  parallelCalls: boolean;
  method: string;
  callText: string | null;
  candidates: string[];
}

describe("probe: the tool-call syntax of every template in ../shared/templates", () => {
  it("covers every template there", () => {
    expect(files.map((file) => file.replace(/\.jinja$/, "")).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const file of files) {
    const name = file.replace(/\.jinja$/, "");
    it(name, () => {
      const result = probes.get(file) as RunResult;
      expect(result.code, result.err).toBe(0);
      const syntax = JSON.parse(result.out).syntax as ProbedSyntax;
      expect(syntax.id).toBe(EXPECTED[name]);
      expect(syntax.startInReasoning, "the generation prompt opens <think>").toBe(OPENS_REASONING.has(name));
      if (syntax.id === null) {
        expect(syntax).toMatchObject({ method: "none", family: null, markers: [], callText: null });
        return;
      }
      // Found by rendering: the probe call's text holds one of the syntax's start markers.
      expect(syntax.method).toBe("render");
      expect(syntax.candidates).toEqual([syntax.id]);
      expect(syntax.markers.length).toBeGreaterThan(0);
      expect(syntax.markers.some((marker) => syntax.callText?.includes(marker))).toBe(true);
      expect(syntax.family).toEqual(expect.any(String));
      expect(syntax.module).toMatch(/^@toolcall\/(model-formats\/|qwen-templates$|gemma-recovery$)/);
    });
  }

  it("parallel calls: Llama raises on a second call and gpt-oss renders only the first; Qwen3 renders both", () => {
    const parallel = (name: string) =>
      (JSON.parse((probes.get(`${name}.jinja`) as RunResult).out).syntax as ProbedSyntax).parallelCalls;
    expect(parallel("meta-llama-Llama-3.1-8B-Instruct")).toBe(false);
    expect(parallel("openai-gpt-oss-120b")).toBe(false);
    expect(parallel("Qwen-Qwen3-8B")).toBe(true);
  });
});

describe("probe: every template in ../shared/templates/families reports what detection finds", () => {
  for (const file of familyFiles) {
    it(file, () => {
      const result = probes.get(file) as RunResult;
      expect(result.code, result.err).toBe(0);
      const syntax = JSON.parse(result.out).syntax as ProbedSyntax;
      const detected = detectToolCallSyntax(readFileSync(join(templatesDir, file), "utf8"));
      expect(syntax).toMatchObject({
        id: detected.id,
        module: detected.module,
        method: detected.method,
        callText: detected.callText,
        startInReasoning: detected.startInReasoning,
        parallelCalls: detected.parallelCalls,
        candidates: detected.candidates,
      });
      if (syntax.id !== null && syntax.method === "render")
        expect(syntax.markers.some((marker) => syntax.callText?.includes(marker))).toBe(true);
    });
  }
});

describe("probe: the syntax in the human report", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await tempDir();
  });

  it("names the syntax, its family, markers, reasoning and how it was found", async () => {
    const result = await run(["probe", "--template", join(templatesDir, "zai-org-GLM-4.7-Flash.jinja")]);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^ {2}syntax +glm47 +GLM-4\.7.*found by differential rendering$/m);
    expect(result.out).toMatch(/^ {2}markers +"<tool_call>" +a call starts here$/m);
    expect(result.out).toMatch(/^ {2}in reasoning +yes +/m);
    expect(result.out).toMatch(/^ {2}parser +@toolcall\/model-formats\/glm +/m);
    const gemma3 = await run(["probe", "--template", join(templatesDir, "google-gemma-3-it.jinja")]);
    expect(gemma3.out).toMatch(/^ {2}syntax +none +neither rendering nor the template's source/m);
  });

  it("a template that raises on every probe is known by its signature", async () => {
    const raising = join(dir, "raising.jinja");
    await writeFile(
      raising,
      "{{ raise_exception('render me with a real conversation') }}<|tool_calls_section_begin|>{{ x }}",
    );
    const json = JSON.parse((await run(["probe", "--template", raising, "--json"])).out);
    expect(json.syntax).toMatchObject({ id: "kimi-k2", method: "signature", callText: null });
    const human = await run(["probe", "--template", raising]);
    expect(human.code).toBe(0);
    expect(human.out).toMatch(/^ {2}syntax +kimi-k2 +.*found by the template's signature/m);
  });
});
