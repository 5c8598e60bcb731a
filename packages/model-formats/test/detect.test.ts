import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { compileTemplate } from "@toolcall/jinja";
import { describe, expect, it } from "vitest";
import { detectToolCallSyntax, SYNTAX_DESCRIPTORS, syntaxById } from "../src/index.js";

const templates = resolve(import.meta.dirname, "../../../../shared/templates");
const read = (file: string) => readFileSync(join(templates, file), "utf8");

/** What each real template writes, by family (read off the template text by hand: see ../shared/templates/SOURCES.md). */
const EXPECTED: Record<string, string | null> = {
  "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use": "hermes",
  "NousResearch-Hermes-3-Llama-3.1-8B-tool_use": "hermes",
  "Qwen-QwQ-32B": "hermes",
  "Qwen-Qwen2.5-7B-Instruct": "hermes",
  "Qwen-Qwen3-0.6B": "hermes",
  "Qwen-Qwen3-8B": "hermes",
  "Qwen-Qwen3-Coder-30B-A3B-Instruct": "qwen3-coder",
  "Qwen-Qwen3-Coder-30B-A3B-Instruct.rev-2025-07-31": "qwen3-coder",
  "Qwen-Qwen3-Coder-30B-A3B-Instruct.rev-2025-08-07": "qwen3-coder",
  // Writes non-string values as `tojson` (`true`), where Qwen3-Coder writes Python's `str()` (`True`).
  "Qwen-Qwen3-Coder-Next": "qwen36",
  "Qwen-Qwen3.5-4B": "qwen3-coder",
  "Qwen-Qwen3.5.miles-qwen3.5_fixed": "qwen3-coder",
  "deepseek-ai-DeepSeek-R1-0528-Qwen3-8B": "deepseek-v3",
  "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B": "deepseek-v3",
  "deepseek-ai-DeepSeek-R1": "deepseek-v3",
  "deepseek-ai-DeepSeek-V3.1": "deepseek-v31",
  "deepseek-ai-DeepSeek-V3": "deepseek-v3",
  "google-gemma-3-it": null,
  "google-gemma-4-31B-it": "gemma4",
  "google-gemma-4-31B-it.rev1-2026-04-02": "gemma4",
  "google-gemma-4-31B-it.rev2-2026-04": "gemma4",
  "google-gemma-4.vllm-tool_chat_template_gemma4": "gemma4",
  "meta-llama-Llama-3.1-8B-Instruct": "llama3-json",
  "meta-llama-Llama-3.2-3B-Instruct": "llama3-json",
  "meta-llama-Llama-3.3-70B-Instruct": "llama3-json",
  "mistralai-Devstral-Small-2-24B-Instruct-2512": "mistral-args",
  "mistralai-Ministral-3-14B-Reasoning-2512": "mistral-args",
  "mistralai-Mistral-Nemo-Instruct-2407": "mistral-list",
  "mistralai-Mistral-Small-3.1-24B-Instruct-2503": "mistral-list",
  "mistralai-Mistral-Small-3.2-24B-Instruct-2506": "mistral-call-id",
  "moonshotai-Kimi-K2-Instruct": "kimi-k2",
  "moonshotai-Kimi-K2-Instruct.rev-2025-07-15.crlf": "kimi-k2",
  "moonshotai-Kimi-K2-Thinking": "kimi-k2",
  "moonshotai-Kimi-K2.5": "kimi-k2",
  "openai-gpt-oss-120b": "harmony",
  "zai-org-GLM-4.5": "glm45",
  "zai-org-GLM-4.6V-Flash": "glm45",
  "zai-org-GLM-4.7-Flash": "glm47",
  "zai-org-GLM-5.1": "glm47",
};

describe("detectToolCallSyntax on every template in ../shared/templates", () => {
  const files = readdirSync(templates).filter((f) => f.endsWith(".jinja"));

  it("covers them all", () => {
    expect(files.map((f) => f.replace(/\.jinja$/, "")).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const file of files) {
    const name = file.replace(/\.jinja$/, "");
    it(name, () => {
      const detected = detectToolCallSyntax(read(file));
      expect(detected.id).toBe(EXPECTED[name]);
      if (detected.id === null) return;
      // Found by rendering, not by the source: the call's text holds what the syntax writes.
      expect(detected.method).toBe("render");
      expect(detected.callText).toContain("probe_fn_alpha");
      expect(detected.candidates).toEqual([detected.id]);
      const descriptor = SYNTAX_DESCRIPTORS.find((d) => d.id === detected.id);
      expect(detected.module).toBe(descriptor?.module);
      // Every syntax of this package detected here is one it implements.
      if (detected.module?.startsWith("@toolcall/model-formats"))
        expect(syntaxById(detected.id)).toBeDefined();
    });
  }

  it("reads the generation prompt: which templates open <think>, which render parallel calls", () => {
    const open = (name: string) => detectToolCallSyntax(read(`${name}.jinja`)).startInReasoning;
    expect(
      ["zai-org-GLM-4.7-Flash", "moonshotai-Kimi-K2.5", "Qwen-QwQ-32B", "deepseek-ai-DeepSeek-R1"].map(open),
    ).toEqual([true, true, true, true]);
    expect(["zai-org-GLM-4.5", "Qwen-Qwen3-8B", "moonshotai-Kimi-K2-Instruct"].map(open)).toEqual([
      false,
      false,
      false,
    ]);
    const parallel = (name: string) => detectToolCallSyntax(read(`${name}.jinja`)).parallelCalls;
    expect(parallel("meta-llama-Llama-3.1-8B-Instruct")).toBe(false); // raises on a second call
    expect(parallel("openai-gpt-oss-120b")).toBe(false); // renders only the first
    expect(parallel("Qwen-Qwen3-8B")).toBe(true);
  });

  it("reads two calls written back to back as parallel calls (the white space between calls is the template's)", () => {
    const backToBack =
      '{% for m in messages %}{% if m.tool_calls %}{% for c in m.tool_calls %}<tool_call>\n{"name": "{{ c.function.name }}", "arguments": {{ c.function.arguments | tojson }}}\n</tool_call>{% endfor %}{% endif %}{% endfor %}';
    expect(detectToolCallSyntax(backToBack)).toMatchObject({ id: "hermes", parallelCalls: true });
    const firstOnly = backToBack.replace("{% for c in m.tool_calls %}", "{% for c in m.tool_calls[:1] %}");
    expect(detectToolCallSyntax(firstOnly)).toMatchObject({ id: "hermes", parallelCalls: false });
  });
});

const familyTemplates = join(templates, "families");

/**
 * What each template of the families' batch (../shared/templates/families) writes, and how detection finds it: by
 * rendering, or by the source's markers when the template raises on the probes or renders no calls (Granite 3.3,
 * LFM2) — `none` where no syntax of this package or its siblings writes it yet.
 */
const EXPECTED_FAMILIES: Record<string, { id: string | null; method: "render" | "signature" | "none" }> = {
  "ByteDance-Seed-Seed-OSS-36B-Instruct": { id: "seed-oss", method: "render" },
  // Raises on a call turn without `tool_plan` (`message.content[0].thinking`): rendered with a plan.
  "CohereLabs-command-a-reasoning-08-2025": { id: "command-a", method: "render" },
  // `<tool_call>{"name": …, "arguments": …}</tool_call>`: Hermes' envelope without its newlines.
  "LGAI-EXAONE-EXAONE-4.0-32B": { id: "exaone4", method: "render" },
  "LiquidAI-LFM2-24B-A2B": { id: "lfm2", method: "signature" },
  "LiquidAI-LFM2.5-8B-A1B": { id: "lfm2", method: "render" },
  "MiniMaxAI-MiniMax-M2.5": { id: "minimax-m2", method: "render" },
  "MiniMaxAI-MiniMax-M3": { id: "minimax-m3", method: "render" },
  "Qwen-Qwen3.6-35B-A3B": { id: "qwen36", method: "render" },
  "Qwen-Qwen3.8-27B": { id: "qwen36", method: "render" },
  "Salesforce-Llama-xLAM-2.vllm-tool_chat_template_xlam_llama": { id: "xlam", method: "render" },
  "Salesforce-xLAM-2.vllm-tool_chat_template_xlam_qwen": { id: "xlam", method: "render" },
  "XiaomiMiMo-MiMo-V2-Flash": { id: "qwen3-coder", method: "render" },
  "ai-sage-GigaChat3-10B-A1.8B": { id: "gigachat3", method: "render" },
  "allenai-Olmo-3-7B-Instruct": { id: null, method: "none" },
  // Renders no assistant calls: only its markers tell.
  "ibm-granite-granite-3.3-2b-instruct": { id: "granite", method: "signature" },
  "ibm-granite-granite-4.0-h-small": { id: "hermes", method: "render" },
  "meetkai-functionary-medium-v3.1": { id: "functionary-v31", method: "render" },
  "meetkai-functionary-medium-v3.2": { id: "functionary-v32", method: "render" },
  "meituan-longcat-LongCat-Flash-Chat": { id: null, method: "none" },
  "nvidia-NVIDIA-Nemotron-3-Nano-30B-A3B-BF16": { id: "qwen3-coder", method: "render" },
  "nvidia-NVIDIA-Nemotron-3-Super-120B-A12B-BF16": { id: "qwen3-coder", method: "render" },
  // Renders a last assistant turn as a prefill, without its calls: only its markers tell.
  "nvidia-NVIDIA-Nemotron-Nano-9B-v2": { id: "nemotron-nano-v2", method: "signature" },
  // `<tool_call>NAME\n<arg_key>…`: GLM-4.5's writing.
  "poolside-Laguna-XS.2": { id: "glm45", method: "render" },
  "stepfun-ai-Step-3.5-Flash": { id: "qwen3-coder", method: "render" },
  "stepfun-ai-step3": { id: null, method: "none" },
  "swiss-ai-Apertus-8B-Instruct-2509": { id: "apertus", method: "render" },
  "tencent-Hunyuan-A13B-Instruct": { id: "hunyuan", method: "render" },
};

describe("detectToolCallSyntax on every template in ../shared/templates/families", () => {
  const files = readdirSync(familyTemplates).filter((f) => f.endsWith(".jinja"));

  it("covers them all", () => {
    expect(files.map((f) => f.replace(/\.jinja$/, "")).sort()).toEqual(Object.keys(EXPECTED_FAMILIES).sort());
  });

  for (const file of files) {
    const name = file.replace(/\.jinja$/, "");
    it(name, () => {
      const detected = detectToolCallSyntax(readFileSync(join(familyTemplates, file), "utf8"));
      expect({ id: detected.id, method: detected.method }).toEqual(EXPECTED_FAMILIES[name]);
      if (detected.method !== "render" || detected.id === null) return;
      expect(detected.callText).toContain("probe_fn_alpha");
      expect(detected.candidates[0]).toBe(detected.id);
      if (detected.module?.startsWith("@toolcall/model-formats"))
        expect(syntaxById(detected.id)).toBeDefined();
    });
  }
});

describe("detectToolCallSyntax falls back on the template's source, and never throws", () => {
  it("a template that raises on every probe: found by its markers", () => {
    const raising =
      "{{ raise_exception('render me with a real conversation') }}<tool_call>{{ x }}</tool_call>";
    expect(detectToolCallSyntax(raising)).toMatchObject({ id: "hermes", method: "signature" });
    const glm =
      "{{ raise_exception('no') }}<tool_call>{{ n }}<arg_key>{{ k }}</arg_key><arg_value>{{ v }}</arg_value>";
    expect(detectToolCallSyntax(glm)).toMatchObject({ id: "glm47", method: "signature" });
  });

  it("a compiled template has no source to search; text that is not Jinja detects nothing", () => {
    const compiled = compileTemplate("{{ raise_exception('no') }}<tool_call>");
    expect(detectToolCallSyntax(compiled)).toMatchObject({ id: null, method: "none" });
    expect(detectToolCallSyntax("{% if %}")).toMatchObject({ id: null, method: "none" });
    expect(detectToolCallSyntax("Hello {{ messages[0].content }}")).toMatchObject({
      id: null,
      method: "none",
    });
  });
});
