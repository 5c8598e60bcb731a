import { defineConfig } from "tsup";

export default defineConfig({
  // The worker is an entry of its own, beside the others: worker-pool.ts starts it as `./line-worker.js`.
  entry: { index: "src/index.ts", parts: "src/parts.ts", "line-worker": "src/workers/line-worker.ts" },
  format: ["esm"],
  dts: { entry: { index: "src/index.ts", parts: "src/parts.ts" } },
  clean: true,
  sourcemap: false,
  target: "node20",
});
