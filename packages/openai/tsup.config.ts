import { defineConfig } from "tsup";

// The entry points share one chunk in each format, so the exchange repair is bundled once.
export default defineConfig({
  entry: ["src/index.ts", "src/exchange.ts"],
  format: ["esm", "cjs"],
  splitting: true,
  dts: true,
  clean: true,
  sourcemap: false,
  target: "node20",
  external: ["openai"],
});
