// Browser and edge compatibility, proven by bundling: every published package's entry points, bundled for a
// browser, for Cloudflare Workers and for Vercel's edge runtime, reach no Node built-in and no Node global. The
// same checks catch a planted `node:fs` import and a `Buffer` (so they can fail), and a real browser runs the
// worker bundles (page.browser.test.ts).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { browserEntries, NODE_ONLY } from "./browser-entries.js";
import { bundlePackage, playgroundRoot, TARGETS } from "./bundle-package.js";

const entries = browserEntries();

describe("the checks themselves", () => {
  const [browser] = TARGETS;
  if (!browser) throw new Error("no targets");

  it("report an import of a Node built-in, with or without the node: prefix", async () => {
    const bundle = await bundlePackage({
      entry: "planted",
      target: browser,
      contents:
        'import { readFileSync } from "node:fs";\nimport path from "path";\nexport const f = () => [readFileSync, path];\n',
    });
    expect(bundle.leaks.map((leak) => `${leak.kind}:${leak.name}`).sort()).toEqual([
      "builtin:node:fs",
      "builtin:path",
    ]);
  });

  it("report a free reference to a Node global, guarded or not, and not a property of globalThis", async () => {
    const bundle = await bundlePackage({
      entry: "planted",
      target: browser,
      contents:
        "export const a = () => Buffer.from('x');\n" +
        "export const b = () => typeof process !== 'undefined' && process.env.X;\n" +
        "export const c = () => globalThis.process?.env;\n" +
        "export const d = (Buffer) => Buffer;\n",
    });
    expect(bundle.leaks.map((leak) => `${leak.kind}:${leak.name}`).sort()).toEqual([
      "global:Buffer",
      "global:process",
    ]);
  });

  it("report an import that does not resolve (a missing package is not a pass)", async () => {
    const bundle = await bundlePackage({ entry: "@toolcall/no-such-package", target: browser });
    expect(bundle.leaks.map((leak) => leak.kind)).toEqual(["unresolved"]);
  });
});

describe("every published entry point bundles for browsers and edge runtimes without Node", () => {
  it("finds the packages a browser user imports", () => {
    const names = new Set(entries.map((entry) => entry.name));
    for (const name of [
      "@toolcall/core",
      "@toolcall/jinja",
      "@toolcall/ai-sdk",
      "@toolcall/openai",
      "@toolcall/langchain",
      "@toolcall/model-formats",
      "@toolcall/qwen-templates",
      "@toolcall/gemma-recovery",
      "@toolcall/conformance",
    ])
      expect(names).toContain(name);
    expect(Object.keys(NODE_ONLY)).toEqual([
      "@toolcall/conformance/vitest",
      "@toolcall/files",
      "@toolcall/files/parts",
    ]);
  });

  const sizes: Array<{ entry: string; minified: number; gzip: number; external: string[] }> = [];
  afterAll(() => {
    if (sizes.length === 0) return;
    // Reported, not asserted: what each entry adds to a browser bundle, minified and gzipped, peers left out.
    const dir = join(playgroundRoot, ".test-results");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "bundle-sizes.json"), `${JSON.stringify(sizes, null, 2)}\n`);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`.padStart(10);
    console.log(
      [
        "[playground] browser bundle of each entry point (esbuild, minified; peers external):",
        `  ${"entry".padEnd(40)} ${"minified".padStart(10)} ${"gzip".padStart(10)}`,
        ...sizes.map(
          (size) =>
            `  ${size.entry.padEnd(40)} ${kb(size.minified)} ${kb(size.gzip)}${size.external.length > 0 ? `  (+ ${size.external.join(", ")})` : ""}`,
        ),
      ].join("\n"),
    );
  });

  for (const entry of entries)
    for (const target of TARGETS)
      it(`${entry.specifier} for ${target.name}`, async () => {
        const bundle = await bundlePackage({ entry: entry.specifier, target, peers: entry.peers });
        expect(bundle.leaks).toEqual([]);
        expect(bundle.bytes).toBeGreaterThan(0);
        if (target.name !== "browser") return;
        const minified = await bundlePackage({
          entry: entry.specifier,
          target,
          peers: entry.peers,
          minify: true,
        });
        expect(minified.leaks).toEqual([]);
        sizes.push({
          entry: entry.specifier,
          minified: minified.bytes,
          gzip: gzipSync(minified.code).length,
          external: minified.external,
        });
      });
});
