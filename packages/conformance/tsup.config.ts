import { defineConfig, type Options } from "tsup";

// ES modules: the library, its browser entry (the same minus what reads files), the vitest binding and the bin (its
// shebang is the first line of src/cli.ts) in one build, sharing chunks; CommonJS: the library, the browser entry
// and the binding, sharing chunks too (`splitting` on). No module is bundled twice in a format, and the bin ships
// once.
const common: Options = { shims: true, target: "node20", external: ["vitest"], splitting: true };

export default defineConfig([
  {
    ...common,
    entry: ["src/index.ts", "src/browser.ts", "src/vitest.ts", "src/cli.ts"],
    format: ["esm"],
    dts: { entry: ["src/index.ts", "src/browser.ts", "src/vitest.ts"] },
  },
  { ...common, entry: ["src/index.ts", "src/browser.ts", "src/vitest.ts"], format: ["cjs"], dts: true },
]);
