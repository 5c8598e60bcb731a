import { defineConfig } from "tsup";

// One entry per family, so `import { hermes } from "@toolcall/model-formats/hermes"` loads Hermes alone.
export default defineConfig({
  entry: [
    "src/index.ts",
    "src/hermes.ts",
    "src/glm.ts",
    "src/kimi.ts",
    "src/deepseek.ts",
    "src/mistral.ts",
    "src/llama.ts",
    "src/gpt-oss.ts",
    "src/minimax.ts",
    "src/seed-oss.ts",
    "src/qwen3-coder.ts",
    "src/granite.ts",
    "src/phi4-mini.ts",
    "src/command-r7b.ts",
    "src/command-a.ts",
    "src/functionary.ts",
    "src/hunyuan.ts",
    "src/jamba.ts",
    "src/xlam.ts",
    "src/apertus.ts",
    "src/hy.ts",
    "src/nemotron-nano-v2.ts",
    "src/minimax-m3.ts",
    "src/lfm2.ts",
    "src/gemma4.ts",
  ],
  format: ["esm", "cjs"],
  // Shared code goes to chunks in both formats, so no family bundles the engine twice.
  splitting: true,
  dts: true,
  clean: true,
  sourcemap: false,
  target: "node20",
});
