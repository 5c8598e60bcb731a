import { defineConfig } from "tsup";

export default defineConfig([
  {
    entry: ["src/index.ts", "src/vitest.ts"],
    format: ["esm", "cjs"],
    dts: true,
    shims: true,
    target: "node20",
    external: ["vitest"],
  },
  {
    entry: ["src/cli.ts"],
    format: ["esm"],
    shims: true,
    target: "node20",
    banner: { js: "#!/usr/bin/env node" },
  },
]);
