import { defineConfig } from "tsup";

// The entry points share one chunk in each format (`splitting` is on for CommonJS too), so the rules are bundled
// once, not once per entry point.
export default defineConfig({
  entry: ["src/index.ts", "src/kit.ts", "src/conformance-implementation.ts"],
  format: ["esm", "cjs"],
  splitting: true,
  dts: true,
  clean: true,
  sourcemap: false,
  target: "node20",
});
