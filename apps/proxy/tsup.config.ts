import { defineConfig } from "tsup";

// One build for the library and the bin (its shebang is the first line of src/cli.ts): the code they share lands
// in a chunk both import, not in two copies.
export default defineConfig({
  entry: ["src/index.ts", "src/cli.ts"],
  format: ["esm"],
  dts: { entry: "src/index.ts" },
  clean: true,
  sourcemap: false,
  target: "node20",
});
