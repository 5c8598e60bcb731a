import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/formats.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: false,
  target: "node20",
});
