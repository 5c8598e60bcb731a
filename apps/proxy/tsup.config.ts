import { defineConfig } from "tsup";

// Two builds: the library with its types, and the bin with its shebang (built side by side, so neither cleans).

export default defineConfig([
  {
    entry: ["src/index.ts"],
    format: ["esm"],
    dts: true,
    sourcemap: false,
    target: "node20",
  },
  {
    entry: ["src/cli.ts"],
    format: ["esm"],
    sourcemap: false,
    target: "node20",
    banner: { js: "#!/usr/bin/env node" },
  },
]);
